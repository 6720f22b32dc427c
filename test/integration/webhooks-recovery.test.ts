import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedEvent, seedTickets } from '../../bin/seed/tickets.ts';
import { createOwnTable, dropOwnTable } from '../support/fuzz-table.ts';
import { makeAdmin, staffToken } from '../support/staff.ts';
import {
  deliveriesOf,
  editTicket,
  eventually,
  type Receiver,
  startReceiver,
  startWebhookWorkers,
  subscribe,
} from '../support/webhooks.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so reading its stream from the start
// reads only this file's changes.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-webhooks-recovery-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

/**
 * Never lost (README "Webhooks"): a change committed while nothing reads the stream is delivered
 * once the consumer is back, from where the stream holds it (the event source mapping resumes
 * from its checkpoint; the poller here from the stream's oldest record, so every earlier change
 * is read again, and must record nothing twice).
 */
let receiver: Receiver;
beforeAll(async () => {
  await createOwnTable(table.name);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await dropOwnTable(table.name);
  if (table.previous === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = table.previous;
});

describe('a change made while the webhook workers are down', () => {
  it('is delivered once they are back, and an earlier change read again is not delivered twice', async () => {
    const token = await staffToken(
      await makeAdmin({ permissions: ['webhooks:manage', 'tickets:read', 'tickets:write'] }),
    );
    const event = await seedEvent();
    const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 1);
    const hook = await subscribe(token, receiver, { events: ['ticket.updated'], eventIds: [event.id] });

    let workers = await startWebhookWorkers();
    await editTicket(token, ticket!.id, { chipNumber: 'C-1' });
    await eventually(workers, () => expect(receiver.received).toHaveLength(1));
    await workers.stop();

    await editTicket(token, ticket!.id, { chipNumber: 'C-2' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(1);

    workers = await startWebhookWorkers({ startingPosition: 'TRIM_HORIZON' });
    try {
      await eventually(workers, async () => {
        expect(receiver.received.map((m) => m.message.data.ticket.chipNumber)).toEqual(['C-1', 'C-2']);
        expect((await deliveriesOf(token, hook.id)).map((d) => d.status)).toEqual(['delivered', 'delivered']);
      });
      await workers.drain();
      expect(receiver.received).toHaveLength(2);
    } finally {
      await workers.stop();
    }
  });
});
