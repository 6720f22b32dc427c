import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { putDelivery, type StoredDelivery } from '#shared/webhooks/data/webhooks';
import { pingMessage } from '#shared/webhooks/domain/webhook-messages';
import { newDelivery } from '#shared/webhooks/use-cases/deliveries';
import { deliveryTime } from '#shared/webhooks/domain/delivery-times';
import { inTurns } from '#shared/in-turns';
import { handler as dispatcher } from '../../functions/jobs/dispatch.ts';
import { call } from '../support/api.ts';
import { countReads } from '../support/dynamo-reads.ts';
import { createOwnTable, dropOwnTable } from '../support/fuzz-table.ts';
import { type Receiver, startReceiver, WEBHOOKS, watchedTicket } from '../support/webhooks.ts';

/**
 * The redelivery's bound per call (functions/jobs/README.md "Catching up"), apart from
 * webhooks-redeliver.test.ts: 1,005 recorded deliveries are written here, on a table of this file's
 * own without a stream (DynamoDB Local slows every write to a stream table late in a run: written
 * beside the stream's consumer, they took that file past its time in CI). No stream, so no
 * consumer: the dispatcher is run by hand.
 */
const table = vi.hoisted(() => {
  process.env.TABLE_NAME = `ticketing-redeliver-bound-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME };
});

let r: Receiver;
beforeAll(async () => {
  await createOwnTable(table.name);
  r = await startReceiver();
});
afterAll(async () => {
  await r?.close();
  await dropOwnTable(table.name);
});

const redeliver = (token: string, webhookId: number, body: unknown) =>
  call('POST', `${WEBHOOKS}/${webhookId}/deliveries/redeliver`, { token, body });

describe('one call', () => {
  it('looks at 1,000 deliveries of the range at most, reading no more than one past them, and next goes on', async () => {
    const { token, hooks } = await watchedTicket(r, ['ticket.updated']);
    const webhook = (await call('GET', `${WEBHOOKS}/${hooks[0]!.id}`, { token })).body.data;
    // 1,003 dead deliveries recorded for another url (refused, so the dispatcher sends none of them), then 2 for
    // this one: only the second call reaches those two.
    const base = Date.now() - 10_000;
    const recorded = Array.from({ length: 1005 }, (_, n): StoredDelivery => {
      const at = new Date(base + n).toISOString();
      const id = `${deliveryTime(base + n)}-ping-${n.toString(16).padStart(8, '0')}`;
      return {
        ...newDelivery(webhook, id, at),
        ...(n < 1003 ? { url: 'https://elsewhere.example/hooks' } : {}),
        status: 'dead',
        attempts: 3,
        nextAttemptAt: null,
        type: 'webhook.ping',
        ticketId: null,
        eventIds: [],
        body: JSON.stringify(pingMessage(webhook.id, at)),
      };
    });
    await inTurns(recorded, 25, putDelivery);
    const range = { from: new Date(base - 1000).toISOString(), to: new Date().toISOString() };
    const answers: unknown[] = [];
    let continueFrom: string | undefined;
    do {
      const { result, reads } = await countReads(() =>
        redeliver(token, webhook.id, { ...range, ...(continueFrom ? { continueFrom } : {}) }),
      );
      expect(result.status, result.raw).toBe(202);
      answers.push(result.body.data);
      continueFrom = result.body.data.next ?? undefined;
      expect(reads.queriesWithoutLimit).toBe(0);
      expect(reads.itemsRead).toBeLessThanOrEqual(1000 + 1 + (reads.byCommand.GetItemCommand ?? 0));
    } while (continueFrom && answers.length < 5);
    expect(answers).toEqual([
      { queued: 0, alreadyQueued: 0, refused: 1000, next: recorded[999]!.id },
      { queued: 2, alreadyQueued: 0, refused: 3, next: null },
    ]);
    const sent = recorded.slice(1003).map((d) => d.messageId);
    // One dispatcher run sends the two, each once; in any order (it attempts a round's deliveries at once).
    await dispatcher({}, { getRemainingTimeInMillis: () => 20_000 + 10_000 });
    expect(r.received.map((m) => m.headers['webhook-id']).sort()).toEqual(sent.sort());
  }, 60_000);
});
