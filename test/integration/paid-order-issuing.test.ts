import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetClock } from '#shared/clock';
import { db } from '#shared/data/client';
import { allocateIds } from '#shared/data/counters';
import { keys as tableKeys } from '#shared/data/keys';
import { getOrder } from '#shared/selling/data/orders';
import type { Order } from '#shared/selling/domain/order';
import { STUCK_ORDER_GRACE_MS, sweepStuckOrders } from '#shared/selling/use-cases/sweep-stuck-orders';
import { runAs } from '../../bin/local/invoke.ts';
import { type OrderIssuer, startOrderIssuer } from '../../bin/local/order-issuer.ts';
import { call } from '../support/api.ts';
import { atTime } from '../support/clock.ts';
import { newCustomer } from '../support/customers.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { clearFaults, failCalls, failures } from '../support/faults.ts';
import { checkedOut, payAsBrowser } from '../support/paid-checkout.ts';
import { useStripeStandIn } from '../support/stripe.ts';
import { customerToken } from '../support/tokens.ts';

// Its own table with a stream, set before anything reads TABLE_NAME (the shared table has none: test/support/env.ts).
const tableName = await vi.hoisted(async () => (await import('../support/env.ts')).useOwnStreamTable('issuing'));

/**
 * Tickets issued behind the Stripe webhook (shared/README.md "Issuing behind the webhook"), through the table's stream
 * as deployed: the local poller with the event source mapping's filter (PAID_ORDER_FILTER) feeding the consumer's
 * handler. The webhook answers once the payment is recorded; the consumer issues each paid order's tickets once, is
 * handed the order once however often the order item is rewritten, is retried when it fails, and a record it gives up
 * on is finished by the sweep. A free checkout is recorded paid by its own request and issued by the consumer alike.
 */
const { keys, relay } = useStripeStandIn();
let issuer: OrderIssuer;
const SLOW_TEST_TIMEOUT = 60_000;

beforeAll(async () => {
  issuer = await startOrderIssuer({ tableName });
  // This table's order ids start far from the shared table's: the run's one Stripe stand-in keeps each PaymentIntent's
  // idempotency key (`order-<id>-payment`), and the same id from two tables would be refused as another request.
  await allocateIds('ORDER', 1_000_000_000);
}, 60_000);
afterAll(() => issuer.stop());
afterEach(async () => {
  resetClock();
  await clearFaults();
});

/** The order once the consumer has left it (no longer `pending`), read after each drain of the stream: 100 tries. */
async function issued(orderId: number | string): Promise<Order> {
  for (let attempt = 0; attempt < 100; attempt++) {
    await issuer.drain();
    const order = (await getOrder(Number(orderId)))!;
    if (order.status !== 'pending') return order;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`order ${orderId} still pending after 100 drains of the stream`);
}

/** How many records naming the order the consumer was handed, over every batch. */
const handed = (orderId: number | string) =>
  issuer.batches
    .flatMap((batch) => batch.Records)
    .filter((record) => record.dynamodb?.Keys?.PK?.S === tableKeys.order(Number(orderId)).PK).length;

const answersFor = (intentId: string) =>
  relay.answers.filter(({ event }) => (event.data.object as { id?: string }).id === intentId);

describe('a paid order, issued behind the webhook', () => {
  it('is answered once its payment is recorded; the consumer issues its tickets, handed the order once', async () => {
    const bought = await checkedOut(keys, relay, { quantity: 2 });
    issuer.pause();
    try {
      await payAsBrowser(keys, bought.intent);
      expect(answersFor(bought.intentId).map(({ answer }) => answer.status)).toEqual([200]);
      const claimed = (await getOrder(Number(bought.orderId)))!;
      expect(claimed).toMatchObject({ status: 'pending', ticketIds: [], issuedTickets: {} });
      expect(claimed.transactions).toMatchObject([{ amount: 25, processor: 'stripe', reference: bought.intentId }]);
    } finally {
      issuer.resume();
    }
    const active = await issued(bought.orderId);
    expect(active.status).toBe('active');
    expect(new Set(active.ticketIds).size).toBe(2);
    // The order item was rewritten by each ticket's record and by the activation: the filter passed the claim alone.
    expect(handed(bought.orderId)).toBe(1);
  });

  it('a delivery of the payment again changes nothing: no second claim, nothing handed again', async () => {
    const bought = await checkedOut(keys, relay);
    await payAsBrowser(keys, bought.intent);
    const active = await issued(bought.orderId);
    const event = answersFor(bought.intentId).find(({ event }) => event.type === 'payment_intent.succeeded')!.event;
    const { standInControl } = await import('../support/stripe.ts');
    await standInControl(keys, 'POST', `events/${event.id}/resend`);
    await standInControl(keys, 'POST', 'settle');
    await issuer.drain();
    expect((await getOrder(Number(bought.orderId)))!).toMatchObject({
      status: 'active',
      ticketIds: active.ticketIds,
      transactions: active.transactions,
    });
    expect(handed(bought.orderId)).toBe(1);
  });

  it(
    'a batch that fails is handed over again and issued, each ticket once',
    async () => {
      const bought = await checkedOut(keys, relay, { quantity: 3 });
      // The one transaction (its three tickets together) fails for one whole call of the consumer (the SDK's 3
      // attempts).
      const fault = failCalls(db, {
        commands: ['TransactWriteItemsCommand'],
        when: (input) => JSON.stringify(input).includes('"#issued":"issuedTickets"'),
        times: 3,
        error: failures.dynamoInternal,
      });
      await payAsBrowser(keys, bought.intent);
      const active = await issued(bought.orderId);
      expect(fault.attempts).toBeGreaterThan(3);
      expect(active.status).toBe('active');
      expect(new Set(active.ticketIds).size).toBe(3);
      expect(handed(bought.orderId)).toBe(2);
    },
    SLOW_TEST_TIMEOUT,
  );

  it(
    'a record the consumer gives up on leaves the order pending with its payment, and the sweep issues it',
    async () => {
      const bought = await checkedOut(keys, relay, { quantity: 2 });
      const fault = failCalls(db, {
        commands: ['TransactWriteItemsCommand'],
        when: (input) => JSON.stringify(input).includes('"#issued":"issuedTickets"'),
        error: failures.dynamoInternal,
      });
      const givenUpBefore = issuer.givenUp.length;
      await payAsBrowser(keys, bought.intent);
      for (let attempt = 0; attempt < 100 && issuer.givenUp.length === givenUpBefore; attempt++) await issuer.drain();
      expect(issuer.givenUp.length).toBe(givenUpBefore + 1);
      expect(fault.attempts).toBeGreaterThan(0);
      const stuck = (await getOrder(Number(bought.orderId)))!;
      expect(stuck.status).toBe('pending');
      expect(Object.keys(stuck.issuedTickets!)).toEqual([]);

      await clearFaults();
      await atTime(Date.now() + STUCK_ORDER_GRACE_MS + 60_000, () =>
        runAs('release-reservations', () => sweepStuckOrders(50_000)),
      );
      const active = (await getOrder(Number(bought.orderId)))!;
      expect(active.status).toBe('active');
      expect(new Set(active.ticketIds).size).toBe(2);
    },
    SLOW_TEST_TIMEOUT,
  );
});

describe('a free checkout', () => {
  it('is recorded paid in its request, passed by the filter and issued by the consumer, handed once', async () => {
    const event = await seedEvent({
      published: true,
      questions: [],
      ticketTypes: [{ name: 'Free', price: 0, total: 5 }],
    });
    const customer = await newCustomer();
    const token = await customerToken(customer.id, { email: customer.email });
    const hold = await call('POST', '/api/v2/my-account/reservations', {
      token,
      body: { eventId: event.id, lines: [{ typeId: event.ticketTypes[0]!.id, quantity: 1 }] },
    });
    expect(hold.status, hold.raw).toBe(201);
    const checkout = await call('POST', `/api/v2/my-account/reservations/${hold.body.data.id}/checkout`, {
      token,
      body: { attendees: [{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }] },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(checkout.status, checkout.raw).toBe(201);
    expect(checkout.body.data).toMatchObject({ order: { status: 'pending' }, payment: null });
    const active = await issued(checkout.body.data.order.id);
    expect(active).toMatchObject({ status: 'active', transactions: [] });
    expect(active.ticketIds).toHaveLength(1);
    expect(handed(checkout.body.data.order.id)).toBe(1);
  });
});
