import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import {
  orderEntriesCaughtUp,
  orderListEntryItem,
  orderStatusEntryItem,
} from '#shared/selling/data/order-list-entries';
import { getOrder } from '#shared/selling/data/orders';
import { call } from '../support/api.ts';
import { commandsSent } from '../support/command-tally.ts';
import { newCustomer } from '../support/customers.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { customerToken } from '../support/tokens.ts';

/**
 * A checkout's calls (README "Checkout"): the Idempotency-Key's claim, the reservation, the event and the customer,
 * the transaction that creates the order and checks the hold out, the order's two list entries put from the order it
 * has just written (no read back: order-list-entries.ts `newOrderEntriesWritten`), the key's answer recorded.
 */
const BASE = '/api/v2/my-account/reservations';

const entry = async (Key: Record<string, unknown>) =>
  (await db.send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }))).Item;

describe('the calls of a checkout', () => {
  it('puts the new order its list entries without reading it back, as the caught-up entries would be', async () => {
    const event = await seedEvent({
      published: true,
      questions: [],
      ticketTypes: [{ name: 'Stand', price: 30, total: 50 }],
    });
    const customerId = (await newCustomer()).id;
    const token = await customerToken(customerId);
    const sourceIp = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
    const lines = [{ typeId: event.ticketTypes[0]!.id, quantity: 2 }];
    const held = await call('POST', BASE, { token, body: { eventId: event.id, lines }, sourceIp });
    expect(held.status, held.raw).toBe(201);
    let answer: Awaited<ReturnType<typeof call>> | undefined;
    const sent = await commandsSent(async () => {
      answer = await call('POST', `${BASE}/${held.body.data.id}/checkout`, {
        token,
        headers: { 'idempotency-key': `calls-${customerId}` },
        body: {
          attendees: [1, 2].map((n) => ({ firstName: 'Ada', lastName: `Guest${n}`, email: `guest-${n}@calls.test` })),
        },
      });
    });
    expect(answer!.status, answer!.raw).toBe(201);
    expect(sent.filter((command) => command !== 'UpdateItemCommand')).toEqual([
      // The key's claim; the reservation; the event and the customer (side by side).
      'PutItemCommand',
      'GetItemCommand',
      'GetItemCommand',
      'GetItemCommand',
      // The order and the hold checked out, in one transaction; its list entry and status entry.
      'TransactWriteItemsCommand',
      'PutItemCommand',
      'PutItemCommand',
    ]);
    // The key's answer, and at most the order ids' block (once per 100 orders a container).
    expect(sent.filter((command) => command === 'UpdateItemCommand').length).toBeGreaterThanOrEqual(1);
    expect(sent).not.toContain('BatchGetItemCommand');
    // The entries are what catching up from the stored order writes: it finds nothing to put.
    const orderId = Number(answer!.body.data.order.id);
    const stored = (await getOrder(orderId))!;
    expect(await entry(keys.orderListEntry(orderId))).toEqual(orderListEntryItem(stored));
    expect(await entry(keys.orderStatusEntry(orderId))).toEqual(orderStatusEntryItem(stored));
    const again = await commandsSent(() => orderEntriesCaughtUp([orderId]));
    expect(again).toEqual(['BatchGetItemCommand']);
  });
});
