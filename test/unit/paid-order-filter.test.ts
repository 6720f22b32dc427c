import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { keys } from '#shared/data/keys';
import { PAID_ORDER_FILTER } from '#shared/selling/data/paid-order-filter';
import { paidOrderOf } from '#shared/selling/data/paid-order-stream';
import { matchesFilter } from '../../bin/local/event-filter.ts';

/**
 * Which stream records reach the issuing consumer (shared/selling/data/paid-order-filter.ts), by the local poller's matcher of
 * Lambda's filter rules: a checkout's entry into `pending` only, paid through Stripe or free. The real stream's records:
 * test/integration/paid-order-issuing.test.ts.
 */
const order = (id: number, fields: Record<string, unknown>) => ({ ...keys.order(id), entity: 'Order', ...fields });
const paidCheckout = { reservationId: 7, paymentIntentId: 'pi_123', attendees: [] };

function record(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', before?: object, after?: object): DynamoDBRecord {
  const image = (item?: object) => (item ? (marshall(item, { removeUndefinedValues: true }) as never) : undefined);
  return {
    eventName,
    dynamodb: {
      Keys: marshall(keys.order(41)) as never,
      OldImage: image(before),
      NewImage: image(after),
      SequenceNumber: '100',
    },
  };
}

describe('the paid orders filter', () => {
  it("passes a paid checkout's claim, awaiting payment (or expired) to pending, and a free checkout's own", () => {
    for (const from of ['awaiting_payment', 'expired'])
      expect(
        matchesFilter(
          record(
            'MODIFY',
            order(41, { status: from, checkout: paidCheckout }),
            order(41, { status: 'pending', checkout: paidCheckout, issuedTickets: {} }),
          ),
          PAID_ORDER_FILTER,
        ),
        from,
      ).toBe(true);
    const free = { reservationId: 7, attendees: [] };
    const claimed = record(
      'MODIFY',
      order(41, { status: 'awaiting_payment', checkout: free }),
      order(41, { status: 'pending', checkout: free, issuedTickets: {} }),
    );
    expect(matchesFilter(claimed, PAID_ORDER_FILTER)).toBe(true);
  });

  it("drops the order's rewrites while it stays pending, its activation and a box-office sale", () => {
    const pending = order(41, { status: 'pending', checkout: paidCheckout, issuedTickets: {} });
    const ticketRecorded = order(41, { status: 'pending', checkout: paidCheckout, issuedTickets: { 0: 9 } });
    const active = order(41, { status: 'active', checkout: paidCheckout, issuedTickets: { 0: 9 } });
    const dropped = [
      record('MODIFY', pending, ticketRecorded),
      record('MODIFY', ticketRecorded, active),
      record('INSERT', undefined, order(41, { status: 'pending', boxOffice: { payment: 'cash' } })),
      record('REMOVE', pending, undefined),
    ];
    for (const [n, each] of dropped.entries())
      expect(matchesFilter(each, PAID_ORDER_FILTER), `record ${n}`).toBe(false);
  });

  it("reads the order's id and the record's sequence number from the key alone", () => {
    expect(paidOrderOf(record('MODIFY', {}, {}))).toEqual({ orderId: 41, sequenceNumber: '100' });
    expect(paidOrderOf({ dynamodb: { Keys: marshall(keys.ticket(41)) as never } })).toBeUndefined();
    expect(paidOrderOf({ dynamodb: { Keys: marshall({ PK: 'ORDER#x', SK: 'ORDER' }) as never } })).toBeUndefined();
  });
});
