import { keys } from './keys.ts';

/**
 * Which of the table stream's records are ticket changes (README "Webhooks"): every change the
 * API makes to a ticket rewrites its record item (`TICKET#<id>` / `TICKET`) with a new version,
 * in the change's own transaction. The event source mapping (infra/webhooks.ts) and the local
 * poller (bin/local/webhook-workers.ts) both pass only these, by this Lambda event filter pattern.
 * Its own module, without I/O, so the CDK app can read it.
 */
export const TICKET_CHANGE_FILTER = {
  eventName: ['INSERT', 'MODIFY'],
  dynamodb: { Keys: { SK: { S: [keys.ticket(0).SK] } } },
};
