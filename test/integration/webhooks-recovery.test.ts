import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEvent, seedTickets } from '../../bin/seed/tickets.ts';
import { handler as ticketChanges } from '../../bin/webhooks/ticket-changes.ts';
import { makeAdmin, staffToken } from '../support/staff.ts';
import {
  deliveriesOf,
  editTicket,
  eventually,
  type Receiver,
  startReceiver,
  startWebhookWorkers,
  subscribe,
  type WebhookWorkers,
} from '../support/webhooks.ts';

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
    const token = await staffToken(
      await makeAdmin({ permissions: ['webhooks:manage', 'tickets:read', 'tickets:write'] }),
    );
    const event = await seedEvent();
    const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 1);
    const hook = await subscribe(token, receiver, { events: ['ticket.updated'], eventIds: [event.id] });

    workers.pauseConsumer();
    workers.stopDispatcher();
    try {
      await editTicket(token, ticket!.id, { chipNumber: 'C-1' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received).toHaveLength(0);
      expect(await deliveriesOf(token, hook.id)).toEqual([]);
    } finally {
      workers.resumeConsumer();
      workers.startDispatcher();
    }
    await eventually(workers, () =>
      expect(receiver.received.map((m) => m.message.data.ticket.chipNumber)).toEqual(['C-1']),
    );

    // The batch that carried the change, handed to the consumer again.
    const carried = workers.batches.filter((batch) =>
      batch.Records.some((record) => record.dynamodb?.Keys?.PK?.S === `TICKET#${ticket!.id}`),
    );
    expect(carried.length).toBeGreaterThan(0);
    for (const batch of carried) expect(await ticketChanges(batch)).toEqual({ batchItemFailures: [] });
    await workers.dispatch();
    expect(receiver.received).toHaveLength(1);
    expect((await deliveriesOf(token, hook.id)).map((d) => [d.type, d.status, d.attempts])).toEqual([
      ['ticket.updated', 'delivered', 1],
    ]);
  });
});
