import { randomInt, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { resetClock } from '#shared/clock';
import { findTicketType } from '#shared/events/data/events';
import { readStock } from '#shared/selling/data/stock';
import type { CreatedEvent } from '#shared/events/domain/event';
import { lapseDueReservations } from '#shared/selling/use-cases/lapse-reservations';
import { runAs } from '../../bin/local/invoke.ts';
import { call } from '../support/api.ts';
import { atTime } from '../support/clock.ts';
import { newCustomer, unusedCustomerId } from '../support/customers.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { confirmAsBrowser, standInControl, useStripeStandIn } from '../support/stripe.ts';
import { adminToken, customerToken } from '../support/tokens.ts';
import { claimedThenIssued, issueBehindWebhook } from '../support/paid-order-issuing.ts';

/**
 * Hoarding is bounded (README "Reservations"), over HTTP: what one customer and one network hold of an event at
 * once is capped by the event's settings, the network's count is kept with the holds (never passed by a rush, given
 * back when a hold is released, lapses or is paid), a checkout keeps a hold no longer than the event's minutes plus
 * the payment's window from its creation, and a hold that ended unpaid is not taken again by its customer at once.
 */
const BASE = '/api/v2/my-account/reservations';
const MINUTE = 60_000;
const { keys, relay } = useStripeStandIn();

afterEach(() => resetClock());

/** A client network of this test's own (the per-network rate window and count are keyed by it). */
const network = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

const onSale = (price = 20) =>
  seedEvent({ published: true, questions: [], ticketTypes: [{ name: 'Runner', price, total: 50 }] });

const typeOf = (event: CreatedEvent) => event.ticketTypes[0]!.id;

/** The organiser's edit of the event's settings, as a client makes it (its version read first). */
async function setEvent(eventId: number, body: Record<string, unknown>) {
  const token = await adminToken();
  const { body: read } = await call('GET', `/api/v2/events/${eventId}`, { token });
  return call('PATCH', `/api/v2/events/${eventId}`, { token, body: { ...body, version: read.data.version } });
}

async function reserve(customerId: number, event: CreatedEvent, quantity: number, sourceIp = network()) {
  return call('POST', BASE, {
    token: await customerToken(customerId),
    body: { eventId: event.id, lines: [{ typeId: typeOf(event), quantity }] },
    sourceIp,
  });
}

async function heldOf(event: CreatedEvent) {
  const shards = await readStock((await findTicketType(typeOf(event)))!);
  return shards.reduce((sum, shard) => sum + shard.held, 0);
}

const release = async (customerId: number, id: number) =>
  call('DELETE', `${BASE}/${id}`, { token: await customerToken(customerId) });

/** An instant the service's clock gave a request started at `expected` (the clock runs on during it: a few ms). */
const near = (at: string, expected: number) => {
  expect(Date.parse(at)).toBeGreaterThanOrEqual(expected);
  expect(Date.parse(at)).toBeLessThan(expected + 5_000);
};

const lapse = () => runAs('release-reservations', () => lapseDueReservations(50_000));
/**
 * Where this file's lapsing tests set the clock: their lapses (11 minutes after) apart from each other's and the other
 * files' (reservations.test.ts at 11 minutes on, checkout-lapse.test.ts at 36 and 56), since the job's checkpoint is
 * shared and a run after another's in the same minute starts past a minute the other drained before this hold was
 * there; and within the 120 minutes one run sweeps from a checkpoint the real clock left.
 */
const LAPSE_CLOCKS = { released: 70 * MINUTE, cooled: 85 * MINUTE };
/** A test that runs the lapsing job (its first run in a file may sweep an hour of minutes, 4 bounded Queries each). */
const LAPSING_TIMEOUT = 60_000;

const attendees = (quantity: number) =>
  Array.from({ length: quantity }, (_, n) => ({
    firstName: `Ada${n}`,
    lastName: 'Lovelace',
    email: `ada${n}@example.com`,
  }));

const checkout = async (customerId: number, id: number, quantity: number) =>
  call('POST', `${BASE}/${id}/checkout`, {
    token: await customerToken(customerId),
    body: { attendees: attendees(quantity) },
    headers: { 'idempotency-key': randomUUID() },
  });

describe("the event's caps on what is held at once", () => {
  it('answers the defaults, takes both caps on POST and PATCH /events, and refuses a cap out of bounds with 400', async () => {
    const event = await onSale();
    const token = await adminToken();
    const read = await call('GET', `/api/v2/events/${event.id}`, { token });
    expect(read.body.data).toMatchObject({ maxHeldPerCustomer: 10, maxHeldPerNetwork: 40 });

    const patched = await setEvent(event.id, { maxHeldPerCustomer: 4, maxHeldPerNetwork: 12 });
    expect(patched.status, patched.raw).toBe(200);
    expect(patched.body.data).toMatchObject({ maxHeldPerCustomer: 4, maxHeldPerNetwork: 12 });
    for (const body of [
      { maxHeldPerCustomer: 0 },
      { maxHeldPerCustomer: 11 },
      { maxHeldPerCustomer: 2.5 },
      { maxHeldPerNetwork: 0 },
      { maxHeldPerNetwork: 1001 },
    ]) {
      const refused = await setEvent(event.id, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.errors[0].path).toBe(`body.${Object.keys(body)[0]}`);
    }
    expect((await call('GET', `/api/v2/events/${event.id}`, { token })).body.data).toMatchObject({
      maxHeldPerCustomer: 4,
      maxHeldPerNetwork: 12,
    });

    const created = await call('POST', '/api/v2/events', {
      token,
      body: {
        title: `Capped ${randomUUID()}`,
        start: '2399-06-01T09:00:00Z',
        timezone: 'Europe/Berlin',
        currency: 'EUR',
        maxHeldPerCustomer: 2,
        maxHeldPerNetwork: 6,
      },
    });
    expect(created.status, created.raw).toBe(201);
    expect(created.body.data).toMatchObject({ maxHeldPerCustomer: 2, maxHeldPerNetwork: 6 });
  });

  it('refuses a hold past maxHeldPerCustomer with 409 hold_limit_customer naming it, holding nothing', async () => {
    const event = await onSale();
    expect((await setEvent(event.id, { maxHeldPerCustomer: 3 })).status).toBe(200);
    const customer = unusedCustomerId();
    const refused = await reserve(customer, event, 4);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ reason: 'hold_limit_customer', maxHeldPerCustomer: 3 });
    expect(await heldOf(event)).toBe(0);
    expect((await reserve(customer, event, 3)).status).toBe(201);
  });

  it('never lets 12 customers of one network racing for holds past its maxHeldPerNetwork, and other networks hold on', async () => {
    const event = await onSale();
    expect((await setEvent(event.id, { maxHeldPerNetwork: 5 })).status).toBe(200);
    const shared = network();
    const answers = await Promise.all(Array.from({ length: 12 }, () => reserve(unusedCustomerId(), event, 1, shared)));
    const held = answers.filter((answer) => answer.status === 201).length;
    expect(held).toBeLessThanOrEqual(5);
    expect(held).toBeGreaterThan(0);
    // The rest are the cap's refusal, or the per-network rate window's own race lost (it fails closed: 429).
    for (const refused of answers.filter((answer) => answer.status !== 201))
      expect(
        refused.body.reason === 'hold_limit_network' || refused.status === 429,
        `${refused.status} ${refused.raw}`,
      ).toBe(true);
    expect(answers.some((answer) => answer.body.reason === 'hold_limit_network')).toBe(true);
    expect(await heldOf(event)).toBe(held);
    // One at a time, the network fills exactly to its cap and no further.
    for (let more = held; more < 5; more++)
      expect((await reserve(unusedCustomerId(), event, 1, shared)).status).toBe(201);
    const past = await reserve(unusedCustomerId(), event, 1, shared);
    expect(past.body).toMatchObject({ status: 409, reason: 'hold_limit_network', maxHeldPerNetwork: 5 });
    expect(await heldOf(event)).toBe(5);
    // More than a network may hold in all is refused before any write; another network is not its neighbour.
    expect((await reserve(unusedCustomerId(), event, 6, network())).body.reason).toBe('hold_limit_network');
    expect((await reserve(unusedCustomerId(), event, 5, network())).status).toBe(201);
    expect(await heldOf(event)).toBe(10);
  });

  it(
    "gives a hold's tickets back to its network's count when it is released, when it lapses and when it is paid",
    async () => {
      const event = await onSale();
      expect((await setEvent(event.id, { maxHeldPerNetwork: 2 })).status).toBe(200);
      const shared = network();
      const full = async () => (await reserve(unusedCustomerId(), event, 1, shared)).body.reason;

      const [first, second] = [unusedCustomerId(), unusedCustomerId()];
      const released = await reserve(first, event, 2, shared);
      expect(released.status).toBe(201);
      expect(await full()).toBe('hold_limit_network');
      expect((await release(first, released.body.data.id)).body.data.status).toBe('released');

      const start = Date.now() + LAPSE_CLOCKS.released;
      const lapsing = await atTime(start, () => reserve(second, event, 2, shared));
      expect(lapsing.status).toBe(201);
      expect(await full()).toBe('hold_limit_network');
      await atTime(start + 11 * MINUTE, lapse);
      const reread = await call('GET', `${BASE}/${lapsing.body.data.id}`, { token: await customerToken(second) });
      expect(reread.body.data.status).toBe('lapsed');

      const buyer = (await newCustomer()).id;
      const paying = await reserve(buyer, event, 2, shared);
      expect(paying.status, paying.raw).toBe(201);
      expect(await full()).toBe('hold_limit_network');
      const order = await checkout(buyer, paying.body.data.id, 2);
      expect(order.status, order.raw).toBe(201);
      // Checked out, it still holds: awaiting payment is not paid.
      expect(await full()).toBe('hold_limit_network');
      const intent = { id: order.body.data.payment.clientSecret.split('_secret_')[0], ...order.body.data.payment };
      await standInControl(keys, 'POST', `payment_intents/${intent.id}/webhooks`, { url: relay.url });
      await confirmAsBrowser(keys, intent, 'pm_card_visa');
      await standInControl(keys, 'POST', 'settle');
      await claimedThenIssued(order.body.data.order.id);
      const paid = await call('GET', `${BASE}/${paying.body.data.id}`, { token: await customerToken(buyer) });
      expect(paid.body.data.status).toBe('paid');

      // Two sold, none held: the network holds its two again.
      expect(await heldOf(event)).toBe(0);
      expect((await reserve(unusedCustomerId(), event, 2, shared)).status).toBe(201);
      expect(await full()).toBe('hold_limit_network');
    },
    LAPSING_TIMEOUT,
  );
});

describe("a checkout's hold on the tickets", () => {
  it("keeps a hold 15 minutes from the checkout within the event's minutes plus 15 from its creation, and never past it", async () => {
    const event = await onSale();
    expect((await setEvent(event.id, { reservationMinutes: 2 })).status).toBe(200);
    const start = Date.now();

    // In time: 15 minutes from the checkout, within the bound.
    const early = (await newCustomer()).id;
    const onTime = await atTime(start, () => reserve(early, event, 1));
    const checkedOut = await atTime(start + MINUTE, () => checkout(early, onTime.body.data.id, 1));
    expect(checkedOut.status, checkedOut.raw).toBe(201);
    const kept = await call('GET', `${BASE}/${onTime.body.data.id}`, { token: await customerToken(early) });
    near(kept.body.data.expiresAt, start + 16 * MINUTE);

    // Late (its 2 minutes over, the lapsing job not yet round): to the bound, 17 minutes from the hold, not 20.
    const late = (await newCustomer()).id;
    const hold = await atTime(start, () => reserve(late, event, 1));
    const lateCheckout = await atTime(start + 5 * MINUTE, () => checkout(late, hold.body.data.id, 1));
    expect(lateCheckout.status, lateCheckout.raw).toBe(201);
    const expiry = async () =>
      (await call('GET', `${BASE}/${hold.body.data.id}`, { token: await customerToken(late) })).body.data.expiresAt;
    const bound = await expiry();
    near(bound, start + 17 * MINUTE);
    // A second checkout call, later still, answers the same order and moves nothing.
    const again = await atTime(start + 10 * MINUTE, () => checkout(late, hold.body.data.id, 1));
    expect(again.status).toBe(201);
    expect(again.body.data.order.id).toBe(lateCheckout.body.data.order.id);
    expect(await expiry()).toBe(bound);
  });
});

describe('the cool-down after a hold that ended unpaid', () => {
  it('refuses the same customer holding the event again at once after a release with 409 hold_cool_down and Retry-After, then holds', async () => {
    const event = await onSale();
    const customer = unusedCustomerId();
    const start = Date.now();
    const first = await atTime(start, () => reserve(customer, event, 2));
    await atTime(start + MINUTE, () => release(customer, first.body.data.id));
    const refused = await atTime(start + MINUTE + 30_000, () => reserve(customer, event, 2));
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('hold_cool_down');
    near(refused.body.coolsUntil, start + 3 * MINUTE);
    expect(Math.abs(refused.body.retryAfterSeconds - 90)).toBeLessThanOrEqual(5);
    expect(refused.headers['retry-after']).toBe(String(refused.body.retryAfterSeconds));
    expect(await heldOf(event)).toBe(0);
    // Another customer takes the tickets meanwhile; the first holds again once the cool-down is over.
    expect((await atTime(start + MINUTE + 30_000, () => reserve(unusedCustomerId(), event, 2))).status).toBe(201);
    expect((await atTime(start + 3 * MINUTE + 5_000, () => reserve(customer, event, 2))).status).toBe(201);
  });

  it(
    'cools a customer down after a lapse as after a release, and not after a paid hold',
    async () => {
      const event = await onSale(0);
      const customer = unusedCustomerId();
      const start = Date.now() + LAPSE_CLOCKS.cooled;
      const lapsing = await atTime(start, () => reserve(customer, event, 1));
      await atTime(start + 11 * MINUTE, lapse);
      const refused = await atTime(start + 11 * MINUTE, () => reserve(customer, event, 1));
      expect(refused.body.reason).toBe('hold_cool_down');
      expect(Date.parse(refused.body.coolsUntil)).toBeGreaterThan(Date.parse(lapsing.body.data.expiresAt));

      // A free order is paid at its checkout: once issued (as a paid one, by the consumer) the buyer may hold the
      // event again at once, no cool-down.
      const buyer = (await newCustomer()).id;
      const hold = await reserve(buyer, event, 1);
      const paid = await checkout(buyer, hold.body.data.id, 1);
      expect(paid.body.data.order.status, paid.raw).toBe('pending');
      expect((await issueBehindWebhook(paid.body.data.order.id)).status).toBe('active');
      expect((await reserve(buyer, event, 1)).status).toBe(201);
    },
    LAPSING_TIMEOUT,
  );
});
