/**
 * The webhooks' side of `npm run load:gate`, in a process of its own as deployed (the consumer and
 * the dispatcher are functions of their own there, never in the API's): the receivers on
 * 127.0.0.1, their subscriptions, the stream poller feeding the consumer and the dispatcher.
 * Forked by gate-rush.ts with the environment already set (the table, the stand-ins); it answers
 * `ready`, then, once told which tickets were admitted, the deliveries it saw, and exits.
 */
import { startWebhookWorkers } from '../local/webhook-workers.ts';
import { awaitDeliveries, subscribeReceivers } from './webhook-receivers.ts';

export type ToWebhookSide = { admitted: number[]; timeoutMs: number };
export type FromWebhookSide = { ready: true } | { deliveries: Awaited<ReturnType<typeof awaitDeliveries>> };

const count = Number(process.env.GATE_RUSH_WEBHOOKS);
const hanging = Number(process.env.GATE_RUSH_HANGING ?? 0);
const eventId = Number(process.env.GATE_RUSH_EVENT_ID);
const tableName = process.env.TABLE_NAME;
if (!process.send || !Number.isInteger(count) || !Number.isInteger(eventId) || !tableName) {
  throw new Error('bin/load/webhook-side.ts is forked by bin/load/gate-rush.ts, which sets its environment');
}
const send = (message: FromWebhookSide) => process.send?.(message);

const fleet = await subscribeReceivers(count, eventId, hanging);
const workers = await startWebhookWorkers({ tableName });
send({ ready: true });
process.once('message', async ({ admitted, timeoutMs }: ToWebhookSide) => {
  const deliveries = await awaitDeliveries(fleet, admitted, timeoutMs);
  await workers.stop();
  await fleet.close();
  send({ deliveries });
  process.disconnect();
});
