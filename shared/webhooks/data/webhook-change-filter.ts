import { keys } from '../../data/keys.ts';

/**
 * Which of the table stream's records the webhooks read (README "Webhooks"), as one Lambda event filter pattern:
 * - ticket changes: every change the API makes to a ticket rewrites its record item (`TICKET#<id>` / `TICKET`) with a
 *   new version, in the change's own transaction (ticket-change-stream.ts);
 * - event changes: every change the events routes make writes, rewrites or deletes the event item
 *   (`EVENT#<id>` / `EVENT`) at a new version beside its history entry (event-change-stream.ts), so `REMOVE` too;
 * - order changes (`ORDER#<id>` / `ORDER`), no webhook's: the consumer catches up the order's list entries, which its
 *   writer puts after the order's transaction (shared/selling/data/order-list-entries.ts), for a writer stopped before.
 * A ticket record is never deleted, so its `REMOVE` (none is sent) would be dropped by the consumer. The event source
 * mapping (infra/webhooks.ts) and the local poller (bin/local/webhook-workers.ts) both pass only these. Its own
 * module, without I/O, so the CDK app can read it.
 */
export const WEBHOOK_CHANGE_FILTER = {
  eventName: ['INSERT', 'MODIFY', 'REMOVE'],
  dynamodb: { Keys: { SK: { S: [keys.ticket(0).SK, keys.event(0).SK, keys.order(0).SK] } } },
};
