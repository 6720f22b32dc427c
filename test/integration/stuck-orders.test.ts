import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetClock } from '#shared/clock';
import { db } from '#shared/data/client';
import { ORDER_SHARDS } from '#shared/data/customer-keys';
import { findTicketType } from '#shared/events/data/events';
import { getOrder } from '#shared/selling/data/orders';
import { readStock } from '#shared/selling/data/stock';
import type { CreatedEvent } from '#shared/events/domain/event';
import {
  STUCK_ORDER_GRACE_MS,
  SWEEP_READ_BUDGET,
  sweepStuckOrders,
} from '#shared/selling/use-cases/sweep-stuck-orders';
import { handler as releaseReservations } from '../../functions/jobs/release-reservations.ts';
import { runAs } from '../../bin/local/invoke.ts';
import { call, getPage } from '../support/api.ts';
import { atTime } from '../support/clock.ts';
import { commandTally } from '../support/command-tally.ts';
import { newCustomer } from '../support/customers.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { clearFaults, failCalls, failures } from '../support/faults.ts';
import { mailTo, newAddress } from '../support/mail.ts';
import { confirmAsBrowser, standInControl, useStripeStandIn } from '../support/stripe.ts';
import { readStats } from '../support/tickets.ts';
import { adminToken, customerToken } from '../support/tokens.ts';
import { handToConsumer } from '../support/paid-order-issuing.ts';

/**
 * No sale left half-done: a box-office sale that fails after its first step is undone by its
 * own request; one whose function died (its undo failing too, as a timeout would leave it) is undone by the sweep of
 * the every-minute job once past the grace period, and a paid checkout stuck `pending` is finished by it. Over HTTP,
 * through the job, with the stock counted three ways (the portal's `available`, the type's `sold`, the check-in
 * statistics) and the sweep's reads counted.
 *
 * The stuck orders are made at a clock half an hour back and swept at the real one (or at a clock just after them:
 * not yet), so no sweep here reaches another file's sale in flight, and the job's lapse checkpoint never moves back.
 */
const ORDERS = '/api/v2/orders';
const RESERVATIONS = '/api/v2/my-account/reservations';
const STAFF_ID = 999_420;
const SLOW_TEST_TIMEOUT = 60_000;
let staff: string;
const { keys, relay } = useStripeStandIn();

beforeAll(async () => {
  staff = await adminToken(['orders:sell', 'orders:read', 'tickets:read'], STAFF_ID);
});
afterEach(async () => {
  resetClock();
  await clearFaults();
});

/** The job as deployed runs it (lapses, then the sweep), at the clock it is called at. */
const job = () => runAs('release-reservations', () => releaseReservations({}));
/** The sweep alone, as the job runs it (for a clock set back: the lapse's checkpoint stays where it is). */
const sweepOnly = () => runAs('release-reservations', () => sweepStuckOrders(50_000));
const halfAnHourAgo = () => Date.now() - 30 * 60_000;

const attendee = (n: number) => ({ firstName: `Ada${n}`, lastName: 'Lovelace', email: `ada${n}@example.com` });

const sale = (event: CreatedEvent, quantity: number) => ({
  eventId: event.id,
  lines: [{ typeId: event.ticketTypes[0]!.id, quantity }],
  payment: { method: 'cash' },
  buyer: { emailAddress: newAddress('buyer'), firstName: 'Grace', lastName: 'Hopper' },
  attendees: Array.from({ length: quantity }, (_, n) => attendee(n)),
});

const sell = (body: unknown, key: string) =>
  call('POST', ORDERS, { token: staff, body, headers: { 'idempotency-key': key } });

/** The issue's transaction (the order's tickets together, recorded on the order) fails on every attempt. */
const issueFails = (also: (input: string) => boolean = () => false) =>
  failCalls(db, {
    commands: ['TransactWriteItemsCommand'],
    when: (input) => {
      const text = JSON.stringify(input);
      return text.includes('"#issued":"issuedTickets"') || also(text);
    },
    error: failures.dynamoInternal,
  });

/** A type's stock as the service counts it, three ways: its shards, its `sold`, the portal's and the statistics'. */
async function stockOf(event: CreatedEvent) {
  const type = (await findTicketType(event.ticketTypes[0]!.id))!;
  const shards = await readStock(type);
  const customer = await newCustomer();
  const listed = await call('GET', `/api/v2/my-account/ticket-type/${event.id}`, {
    token: await customerToken(customer.id),
  });
  expect(listed.status, listed.raw).toBe(200);
  return {
    left: shards.reduce((sum, shard) => sum + shard.left, 0),
    held: shards.reduce((sum, shard) => sum + shard.held, 0),
    sold: shards.reduce((sum, shard) => sum + shard.sold, 0),
    available: listed.body.data[0].available as number,
    soldTickets: (await readStats(staff, event.id)).soldTickets,
  };
}

async function staffOrder(id: number) {
  const answer = await call('GET', `${ORDERS}/${id}`, { token: staff });
  expect(answer.status, answer.raw).toBe(200);
  return answer.body.data;
}

const ticketStatuses = (order: { tickets: { status: string }[] }) => order.tickets.map((ticket) => ticket.status);

describe('a box-office sale that fails after its first step', () => {
  it(
    'is undone by its own request: no ticket active, nothing held, the order expired with its payment offset; a retry with the key sells once',
    async () => {
      const event = await seedEvent({
        published: true,
        questions: [],
        ticketTypes: [{ name: 'Runner', price: 12.5, total: 10 }],
      });
      const body = sale(event, 3);
      const key = crypto.randomUUID();
      const fault = issueFails();
      const failed = await sell(body, key);
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(fault.attempts).toBeGreaterThan(0);
      await clearFaults();

      expect(await stockOf(event)).toEqual({ left: 10, held: 0, sold: 0, available: 10, soldTickets: 0 });
      const expired = await getPage(`${ORDERS}?eventId=${event.id}&status=expired`, staff);
      expect(expired.totalCount).toBe(1);
      const order = await staffOrder(Number(expired.data[0]!.id));
      expect(order).toMatchObject({ status: 'expired', payment: { paid: 0 } });
      expect(order.payment.transactions).toEqual([
        expect.objectContaining({ amount: 37.5, processor: 'cash' }),
        expect.objectContaining({ amount: -37.5, processor: 'cash', reference: `order-${order.id}-refund-cash` }),
      ]);
      expect(order.history.at(-1)).toMatchObject({ by: `admin ${STAFF_ID}`, action: 'expired' });
      expect(ticketStatuses(order)).toEqual([]);
      expect((await getPage(`${ORDERS}?eventId=${event.id}&status=pending`, staff)).totalCount).toBe(0);

      // The failure released the key: the retry sells, as a new order, the failed one's places once.
      const retried = await sell(body, key);
      expect(retried.status, retried.raw).toBe(201);
      expect(retried.body.data.status).toBe('active');
      expect(await stockOf(event)).toEqual({ left: 7, held: 0, sold: 3, available: 7, soldTickets: 3 });
      expect((await getPage(`${ORDERS}?eventId=${event.id}`, staff)).totalCount).toBe(2);
    },
    SLOW_TEST_TIMEOUT,
  );

  it(
    'whose function died is undone by the sweep, only after the grace period, once however often it runs, its reads bounded',
    async () => {
      const event = await seedEvent({
        published: true,
        questions: [],
        ticketTypes: [{ name: 'Runner', price: 20, total: 10 }],
      });
      const made = halfAnHourAgo();
      // The undo fails too (its close, nothing issued to cancel): what a timeout leaves, no code running after.
      issueFails((text) => text.includes('"expired"'));
      const crashed = await atTime(made, () => sell(sale(event, 3), crypto.randomUUID()));
      expect(crashed.status).toBeGreaterThanOrEqual(500);
      await clearFaults();
      const pending = await getPage(`${ORDERS}?eventId=${event.id}&status=pending`, staff);
      expect(pending.totalCount).toBe(1);
      const orderId = Number(pending.data[0]!.id);
      expect(ticketStatuses(await staffOrder(orderId))).toEqual([]);
      expect(Object.keys((await getOrder(orderId))!.issuedTickets!)).toEqual([]);
      expect(await stockOf(event)).toEqual({ left: 7, held: 3, sold: 0, available: 7, soldTickets: 0 });

      // Within the grace period the sweep leaves it.
      await atTime(made + STUCK_ORDER_GRACE_MS - 30_000, sweepOnly);
      expect((await getOrder(orderId))!.status).toBe('pending');
      expect(await stockOf(event)).toMatchObject({ held: 3, sold: 0 });

      const { tally: queries } = await gsi6Queries(job);
      const order = await staffOrder(orderId);
      expect(order.status).toBe('expired');
      expect(order.history.at(-1)).toMatchObject({ by: 'system', action: 'expired' });
      expect(order.payment).toMatchObject({ paid: 0 });
      expect(order.payment.transactions.map((transaction: { amount: number }) => transaction.amount)).toEqual([
        60, -60,
      ]);
      expect(ticketStatuses(order)).toEqual([]);
      expect(await stockOf(event)).toEqual({ left: 10, held: 0, sold: 0, available: 10, soldTickets: 0 });
      expect((await getPage(`${ORDERS}?eventId=${event.id}&status=expired`, staff)).totalCount).toBe(1);

      // Bounded: GSI6's pending shards, oldest first, each Query with a Limit, within the run's budget; no Scan.
      expect(queries.scans).toBe(0);
      expect(queries.limits.length).toBeGreaterThanOrEqual(ORDER_SHARDS);
      expect(queries.limits.every((limit) => limit !== undefined && limit > 0 && limit <= SWEEP_READ_BUDGET)).toBe(
        true,
      );
      expect(queries.read).toBeLessThanOrEqual(SWEEP_READ_BUDGET);
      expect(queries.forward.every(Boolean)).toBe(true);

      // Swept again: nothing moves twice.
      await job();
      const again = await staffOrder(orderId);
      expect(again.history).toEqual(order.history);
      expect(again.payment.transactions).toEqual(order.payment.transactions);
      expect(await stockOf(event)).toEqual({ left: 10, held: 0, sold: 0, available: 10, soldTickets: 0 });
    },
    SLOW_TEST_TIMEOUT,
  );

  it(
    "whose function died gives its promo code's use back when the sweep undoes it",
    async () => {
      const event = await seedEvent({
        published: true,
        questions: [],
        ticketTypes: [{ name: 'Runner', price: 20, total: 10 }],
      });
      const organiser = await adminToken();
      const codes = `/api/v2/events/${event.id}/promo-codes`;
      const code = (await call('POST', codes, { token: organiser, body: { code: 'DESK-5', amountOff: 5, maxUses: 1 } }))
        .body.data;
      const usesOf = async () => (await call('GET', codes, { token: organiser })).body.data[0].uses;
      issueFails((text) => text.includes('"expired"'));
      const body = { ...sale(event, 1), promoCode: 'desk-5' };
      const crashed = await atTime(halfAnHourAgo(), () => sell(body, crypto.randomUUID()));
      expect(crashed.status).toBeGreaterThanOrEqual(500);
      await clearFaults();
      expect(await usesOf()).toBe(1);
      await sweepOnly();
      const expired = await getPage(`${ORDERS}?eventId=${event.id}&status=expired`, staff);
      expect(expired.data.map((order) => order.promoCode)).toEqual([code.code]);
      expect(await usesOf()).toBe(0);
      expect(await stockOf(event)).toMatchObject({ left: 10, held: 0, sold: 0 });
    },
    SLOW_TEST_TIMEOUT,
  );
});

describe('a paid checkout stuck pending', () => {
  it(
    'is finished by the sweep after the grace period (the buyer paid: issued, never undone), once',
    async () => {
      const made = halfAnHourAgo();
      const event = await seedEvent({
        published: true,
        questions: [],
        ticketTypes: [{ name: 'Runner', price: 12.5, total: 10 }],
      });
      const typeId = event.ticketTypes[0]!.id;
      const customer = await newCustomer();
      const token = await customerToken(customer.id, { email: customer.email });
      const orderId = await atTime(made, async () => {
        const hold = await call('POST', RESERVATIONS, {
          token,
          body: { eventId: event.id, lines: [{ typeId, quantity: 3 }] },
        });
        expect(hold.status, hold.raw).toBe(201);
        const checkout = await call('POST', `${RESERVATIONS}/${hold.body.data.id}/checkout`, {
          token,
          body: { attendees: [attendee(0), attendee(1), attendee(2)] },
          headers: { 'idempotency-key': crypto.randomUUID() },
        });
        expect(checkout.status, checkout.raw).toBe(201);
        const { order, payment } = checkout.body.data;
        const intent = {
          id: (payment.clientSecret as string).split('_secret_')[0]!,
          clientSecret: payment.clientSecret,
        };
        await standInControl(keys, 'POST', `payment_intents/${intent.id}/webhooks`, { url: relay.url });
        // The issue's transaction fails on every attempt: the issuing consumer's every retry fails, and the event
        // source gives the record up (a poison record, its pointer on the on-failure queue).
        const fault = issueFails();
        expect((await confirmAsBrowser(keys, intent, 'pm_card_visa')).body.status).toBe('succeeded');
        await standInControl(keys, 'POST', 'settle');
        expect((await handToConsumer(order.id)).batchItemFailures).toHaveLength(1);
        expect(fault.attempts).toBeGreaterThan(0);
        return Number(order.id);
      });
      await clearFaults();
      const stopped = (await getOrder(orderId))!;
      expect(stopped.status).toBe('pending');
      expect(Object.keys(stopped.issuedTickets!)).toEqual([]);
      expect(await stockOf(event)).toEqual({ left: 7, held: 3, sold: 0, available: 7, soldTickets: 0 });

      await atTime(made + STUCK_ORDER_GRACE_MS - 30_000, sweepOnly);
      expect((await getOrder(orderId))!.status).toBe('pending');

      await job();
      const active = (await getOrder(orderId))!;
      expect(active.status).toBe('active');
      expect(active.ticketIds).toHaveLength(3);
      expect(new Set(active.ticketIds).size).toBe(3);
      expect(await stockOf(event)).toEqual({ left: 7, held: 0, sold: 3, available: 7, soldTickets: 3 });
      const mine = await call('GET', '/api/v2/my-account/orders?includeTickets=true', { token });
      const listed = mine.body.data.find((entry: { id: string }) => entry.id === String(orderId));
      expect(listed).toMatchObject({ status: 'active' });
      const confirmations = () =>
        mailTo(customer.email).then((mails) => mails.filter((mail) => mail.subject.includes(`(order ${orderId})`)));
      expect(await confirmations()).toHaveLength(1);

      await job();
      expect((await getOrder(orderId))!.ticketIds).toEqual(active.ticketIds);
      expect(await stockOf(event)).toEqual({ left: 7, held: 0, sold: 3, available: 7, soldTickets: 3 });
      expect(await confirmations()).toHaveLength(1);
    },
    SLOW_TEST_TIMEOUT,
  );
});

/** The Queries of GSI6 that `work` sends (each one's Limit and direction), and any Scan. */
interface QueryTally {
  limits: (number | undefined)[];
  forward: boolean[];
  /** Index items the Queries answered. */
  read: number;
  scans: number;
}
const gsi6Tally = commandTally<QueryTally>('testSweepQueries', async (tally, command, input, send) => {
  if (command === 'ScanCommand') tally.scans++;
  if (command !== 'QueryCommand' || input.IndexName !== 'GSI6') return send();
  tally.limits.push(input.Limit as number | undefined);
  tally.forward.push(input.ScanIndexForward !== false);
  const result = await send();
  tally.read += Number((result.output as { Count?: number }).Count ?? 0);
  return result;
});
const gsi6Queries = (work: () => Promise<unknown>) => gsi6Tally({ limits: [], forward: [], scans: 0, read: 0 }, work);
