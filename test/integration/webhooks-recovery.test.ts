import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as ticketChanges } from '../../functions/jobs/ticket-changes.ts';
import {
  deliveriesOf,
  editTicket,
  eventually,
  type Receiver,
  startReceiver,
  startWebhookWorkers,
  type WebhookWorkers,
  watchedTicket,
} from '../support/webhooks.ts';

// Its own table with a stream, set before anything reads TABLE_NAME (the shared table has none: test/support/env.ts).
await vi.hoisted(async () => (await import('../support/env.ts')).useOwnStreamTable('recovery'));

/**
 * Never lost, never twice (README "Webhooks"): a change committed while neither the stream's
 * consumer nor the dispatcher runs is delivered once they are back; a stream record handed to
 * the consumer again (Lambda retries a batch, or bisects it) records and sends nothing twice.
 */
let receiver: Receiver;
let workers: WebhookWorkers;
beforeAll(async () => {
  receiver = await startReceiver();
  workers = await startWebhookWorkers();
});
afterAll(async () => {
  await workers.stop();
  await receiver.close();
});

describe('the webhook workers down and back', () => {
  it('deliver a change made while they were down, once, and a record read again sends nothing', async () => {
    const {
      token,
      ticket,
      hooks: [hook],
    } = await watchedTicket(receiver, ['ticket.updated']);

    workers.pauseConsumer();
    await workers.stopDispatcher();
    try {
      await editTicket(token, ticket.id, { chipNumber: 'C-1' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received).toHaveLength(0);
      expect(await deliveriesOf(token, hook!.id)).toEqual([]);
    } finally {
      workers.resumeConsumer();
      workers.startDispatcher();
    }
    await eventually(workers, () =>
      expect(receiver.received.map((m) => m.message.data.ticket.chipNumber)).toEqual(['C-1']),
    );

    // The batch that carried the change, handed to the consumer again.
    const carried = workers.batches.filter((batch) =>
      batch.Records.some((record) => record.dynamodb?.Keys?.PK?.S === `TICKET#${ticket.id}`),
    );
    expect(carried.length).toBeGreaterThan(0);
    for (const batch of carried) expect(await ticketChanges(batch)).toEqual({ batchItemFailures: [] });
    await workers.dispatch();
    expect(receiver.received).toHaveLength(1);
    expect((await deliveriesOf(token, hook!.id)).map((d) => [d.type, d.status, d.attempts])).toEqual([
      ['ticket.updated', 'delivered', 1],
    ]);
  });
});
