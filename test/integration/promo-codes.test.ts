import { afterEach, describe, expect, it } from 'vitest';
import { resetClock } from '#shared/clock';
import { findTicketType } from '#shared/events/data/events';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { keys as tableKeys } from '#shared/data/keys';
import { getOrder } from '#shared/selling/data/orders';
import { getReservation } from '#shared/selling/data/reservations';
import { readAllUses } from '#shared/selling/data/promo-codes';
import { readStock } from '#shared/selling/data/stock';
import type { NewEvent } from '#shared/events/domain/event';
import { lapseDueReservations } from '#shared/selling/use-cases/lapse-reservations';
import { runAs } from '../../bin/local/invoke.ts';
import { call } from '../support/api.ts';
import { atTime } from '../support/clock.ts';
import { unusedCustomerId } from '../support/customers.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { claimedThenIssued } from '../support/paid-order-issuing.ts';
import { confirmAsBrowser, standInControl, useStripeStandIn } from '../support/stripe.ts';
import { addPromoCode, expectNeverPastMaxUses, promoCheckout, usesOf } from '../support/promo-codes.ts';
import { adminToken, customerToken } from '../support/tokens.ts';

/**
 * Promo codes over HTTP: an organiser's codes of an event (case-insensitive, unique, within their scope), a buyer's
 * hold priced with one, each refusal with its reason and nothing held, and the uses: taken by a hold in its own
 * transaction, given back by a release or lapse, kept by a paid order, never more than `maxUses` however many
 * buyers race for them.
 */
const RESERVATIONS = '/api/v2/my-account/reservations';
const codesOf = (eventId: number) => `/api/v2/events/${eventId}/promo-codes`;

afterEach(() => resetClock());

const onSale = (overrides: Partial<NewEvent> = {}) =>
  seedEvent({
    published: true,
    questions: [],
    ticketTypes: [
      { name: 'Runner', price: 25.5, total: 1000 },
      { name: 'Kids', price: 10, total: 1000 },
    ],
    ...overrides,
  });

async function reserve(customerId: number, body: Record<string, unknown>) {
  return call('POST', RESERVATIONS, { token: await customerToken(customerId), body });
}

async function stockOf(typeId: number) {
  const shards = await readStock((await findTicketType(typeId))!);
  return { left: shards.reduce((a, s) => a + s.left, 0), held: shards.reduce((a, s) => a + s.held, 0) };
}

describe('the promo-code routes', () => {
  it('creates a code, lists it with its uses, edits and deletes it, matching codes whatever their case', async () => {
    const event = await onSale();
    const token = await adminToken();
    const created = await call('POST', codesOf(event.id), {
      token,
      body: { code: 'Summer-25', percentOff: 25, maxUses: 100, typeIds: [event.ticketTypes[0]!.id] },
    });
    expect(created.status, created.raw).toBe(201);
    expect(created.body.data).toMatchObject({
      eventId: event.id,
      code: 'Summer-25',
      percentOff: 25,
      amountOff: null,
      typeIds: [event.ticketTypes[0]!.id],
      maxUses: 100,
      validFrom: null,
      validUntil: null,
      uses: 0,
    });
    const taken = await call('POST', codesOf(event.id), { token, body: { code: 'SUMMER-25', amountOff: 5 } });
    expect(taken.status).toBe(409);
    expect(taken.body.reason).toBe('promo_code_taken');
    // Another event may have the same code.
    expect(
      (await call('POST', codesOf((await onSale()).id), { token, body: { code: 'summer-25', amountOff: 5 } })).status,
    ).toBe(201);

    const id = created.body.data.id;
    const patched = await call('PATCH', `${codesOf(event.id)}/${id}`, {
      token,
      body: { amountOff: 4.5, typeIds: null, maxUses: null },
    });
    expect(patched.status, patched.raw).toBe(200);
    expect(patched.body.data).toMatchObject({ percentOff: null, amountOff: 4.5, typeIds: null, maxUses: null });
    const listed = await call('GET', codesOf(event.id), { token });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ totalCount: 1, count: 1, data: [patched.body.data] });

    expect((await call('DELETE', `${codesOf(event.id)}/${id}`, { token })).status).toBe(204);
    expect((await call('GET', codesOf(event.id), { token })).body.totalCount).toBe(0);
    expect((await call('DELETE', `${codesOf(event.id)}/${id}`, { token })).status).toBe(404);
  });

  it("answers another scope's event 404 on every route, and changes nothing", async () => {
    const [mine, theirs] = [await onSale(), await onSale()];
    const code = await addPromoCode(theirs.id, { percentOff: 10 });
    const scoped = await adminToken(['events:read', 'events:write'], 616_161, { eventScope: [mine.id] });
    expect(
      (await call('POST', codesOf(theirs.id), { token: scoped, body: { code: 'MINE1', percentOff: 5 } })).status,
    ).toBe(404);
    expect((await call('GET', codesOf(theirs.id), { token: scoped })).status).toBe(404);
    expect(
      (await call('PATCH', `${codesOf(theirs.id)}/${code.id}`, { token: scoped, body: { percentOff: 90 } })).status,
    ).toBe(404);
    expect((await call('DELETE', `${codesOf(theirs.id)}/${code.id}`, { token: scoped })).status).toBe(404);
    // Nor through an event of its own scope.
    expect((await call('DELETE', `${codesOf(mine.id)}/${code.id}`, { token: scoped })).status).toBe(404);
    const listed = await call('GET', codesOf(theirs.id), { token: await adminToken() });
    expect(listed.body.data).toEqual([code]);
  });

  it('refuses bad codes with 400 naming the field, creating nothing', async () => {
    const event = await onSale({ currency: 'JPY', ticketTypes: [{ name: 'Seat', price: 1000, total: 10 }] });
    const token = await adminToken();
    const refusals: [Record<string, unknown>, string][] = [
      [{ code: 'X', percentOff: 10 }, 'body.code'],
      [{ code: 'ok-code', percentOff: 10, amountOff: 5 }, 'body'],
      [{ code: 'ok-code' }, 'body'],
      [{ code: 'ok-code', percentOff: 0 }, 'body.percentOff'],
      [{ code: 'ok-code', percentOff: 100.0001 }, 'body.percentOff'],
      [{ code: 'ok-code', amountOff: 100.5 }, 'body.amountOff'],
      [{ code: 'ok-code', percentOff: 10, typeIds: [999_999_999] }, 'body.typeIds.0'],
      [{ code: 'ok-code', percentOff: 10, maxUses: 0 }, 'body.maxUses'],
      [
        { code: 'ok-code', percentOff: 10, validFrom: '2027-01-02T00:00:00Z', validUntil: '2027-01-01T00:00:00Z' },
        'body.validUntil',
      ],
      [{ code: 'ok-code', percentOff: 10, uses: 3 }, 'body.uses'],
    ];
    for (const [body, path] of refusals) {
      const answer = await call('POST', codesOf(event.id), { token, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(
        answer.body.errors.map((error: { path: string }) => error.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await call('GET', codesOf(event.id), { token })).body.totalCount).toBe(0);
  });
});

describe('a hold with a promo code', () => {
  it('prices the discount off the tickets only, names the code, and takes one use; a release gives it back', async () => {
    const event = await onSale();
    const [runner, kids] = event.ticketTypes.map((type) => type.id) as [number, number];
    const code = await addPromoCode(event.id, { percentOff: 10, typeIds: [runner], maxUses: 5 });
    const customer = unusedCustomerId();
    const held = await reserve(customer, {
      eventId: event.id,
      lines: [
        { typeId: runner, quantity: 3 },
        { typeId: kids, quantity: 1 },
      ],
      promoCode: code.code.toLowerCase(),
    });
    expect(held.status, held.raw).toBe(201);
    // 10 % of 76.50 (the runners' line only), rounded half away from zero in cents: 7.65.
    expect(held.body.data).toMatchObject({
      promoCode: code.code,
      amounts: { tickets: 86.5, discount: 7.65, shipping: 0, total: 78.85, currency: 'EUR' },
    });
    expect(await usesOf(code)).toBe(1);
    const released = await call('DELETE', `${RESERVATIONS}/${held.body.data.id}`, {
      token: await customerToken(customer),
    });
    expect(released.status).toBe(200);
    expect(await usesOf(code)).toBe(0);
    expect(await stockOf(runner)).toMatchObject({ held: 0 });
  });

  it('gives the use back when the hold lapses', async () => {
    const event = await onSale();
    const code = await addPromoCode(event.id, { amountOff: 3, maxUses: 1 });
    const start = Date.now();
    const held = await atTime(start, () =>
      reserve(unusedCustomerId(), {
        eventId: event.id,
        lines: [{ typeId: event.ticketTypes[1]!.id, quantity: 2 }],
        promoCode: code.code,
      }),
    );
    expect(held.body.data.amounts).toMatchObject({ tickets: 20, discount: 3, total: 17 });
    const refused = await reserve(unusedCustomerId(), {
      eventId: event.id,
      lines: [{ typeId: event.ticketTypes[1]!.id, quantity: 1 }],
      promoCode: code.code,
    });
    expect(refused.body.reason).toBe('promo_code_used_up');
    await atTime(start + 11 * 60_000, () => runAs('release-reservations', () => lapseDueReservations(50_000)));
    expect(await usesOf(code)).toBe(0);
  });

  it('refuses an unknown, expired, not yet valid, inapplicable or used-up code with its reason, holding nothing', async () => {
    const event = await onSale();
    const [runner, kids] = event.ticketTypes.map((type) => type.id) as [number, number];
    const hour = 3_600_000;
    const at = (offset: number) => new Date(Date.now() + offset).toISOString();
    const expired = await addPromoCode(event.id, { percentOff: 5, validUntil: at(-hour) });
    const early = await addPromoCode(event.id, { percentOff: 5, validFrom: at(hour) });
    const kidsOnly = await addPromoCode(event.id, { percentOff: 5, typeIds: [kids] });
    const once = await addPromoCode(event.id, { percentOff: 5, maxUses: 1 });
    const line = { eventId: event.id, lines: [{ typeId: runner, quantity: 1 }] };
    expect((await reserve(unusedCustomerId(), { ...line, promoCode: once.code })).status).toBe(201);
    const cases: [string, string][] = [
      ['NO-SUCH-CODE', 'promo_code_invalid'],
      [expired.code, 'promo_code_invalid'],
      [early.code, 'promo_code_invalid'],
      [kidsOnly.code, 'promo_code_not_applicable'],
      [once.code, 'promo_code_used_up'],
    ];
    for (const [promoCode, reason] of cases) {
      const answer = await reserve(unusedCustomerId(), { ...line, promoCode });
      expect(answer.status, promoCode).toBe(409);
      expect(answer.body, promoCode).toMatchObject({ reason, promoCode });
    }
    expect(await stockOf(runner)).toMatchObject({ held: 1, left: 999 });
    expect(await usesOf(once)).toBe(1);
    // An unknown event is refused as one, whatever code it names (the code is judged after the event).
    const unknown = await reserve(unusedCustomerId(), { ...line, eventId: 999_999_999, promoCode: 'NO-SUCH-CODE' });
    expect(unknown.status).toBe(400);
    // A code another event has is not this event's.
    const other = await addPromoCode((await onSale()).id, { percentOff: 5 });
    expect((await reserve(unusedCustomerId(), { ...line, promoCode: other.code })).body.reason).toBe(
      'promo_code_invalid',
    );
  });

  it('never uses a code more than maxUses when 40 buyers race for its 7 uses', async () => {
    const event = await onSale();
    const typeId = event.ticketTypes[0]!.id;
    const code = await addPromoCode(event.id, { percentOff: 50, maxUses: 7 });
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        reserve(unusedCustomerId(), { eventId: event.id, lines: [{ typeId, quantity: 1 }], promoCode: code.code }),
      ),
    );
    await expectNeverPastMaxUses(answers, code, 7);
    // A refused hold took no place either.
    expect(await stockOf(typeId)).toMatchObject({ held: 7, left: 993 });
  });

  it('spreads the uses of a code without a limit over 64 items, each hold taking one from one of them', async () => {
    const event = await onSale();
    const code = await addPromoCode(event.id, { percentOff: 5 });
    for (let n = 0; n < 3; n++)
      expect(
        (
          await reserve(unusedCustomerId(), {
            eventId: event.id,
            lines: [{ typeId: event.ticketTypes[0]!.id, quantity: 1 }],
            promoCode: code.code,
          })
        ).status,
      ).toBe(201);
    const shards = (await readAllUses([{ id: code.id, usesShards: 64 }])).get(code.id)!;
    expect(shards.every((shard) => shard.cap === null)).toBe(true);
    expect(shards.reduce((sum, shard) => sum + shard.used, 0)).toBe(3);
    expect(await usesOf(code)).toBe(3);
  });

  it('takes a raised limit at once, refuses one below the uses taken, and keeps a paid order’s use', async () => {
    const event = await onSale();
    const typeId = event.ticketTypes[1]!.id;
    const token = await adminToken();
    const code = await addPromoCode(event.id, { percentOff: 100, maxUses: 1 });
    const line = { eventId: event.id, lines: [{ typeId, quantity: 1 }], promoCode: code.code };
    const { held, checkout } = await promoCheckout(event.id, typeId, code.code);
    expect(held.body.data.amounts).toMatchObject({ tickets: 10, discount: 10, total: 0 });
    // A free order is paid at once, issued as a paid one is: the use stays taken.
    expect(checkout.body.data.order).toMatchObject({ status: 'pending', grandTotal: 0 });
    expect((await claimedThenIssued(checkout.body.data.order.id)).status).toBe('active');
    expect(await usesOf(code)).toBe(1);
    const path = `${codesOf(event.id)}/${code.id}`;
    expect((await call('DELETE', path, { token })).body.reason).toBe('promo_code_in_use');

    const narrowed = await call('PATCH', path, { token, body: { typeIds: [typeId] } });
    expect(narrowed.body.data).toMatchObject({ typeIds: [typeId], uses: 1 });
    const lowered = await call('PATCH', path, { token, body: { maxUses: 1 } });
    expect(lowered.status).toBe(200);
    expect((await reserve(unusedCustomerId(), line)).body.reason).toBe('promo_code_used_up');
    const raised = await call('PATCH', path, { token, body: { maxUses: 250 } });
    expect(raised.body.data).toMatchObject({ maxUses: 250, uses: 1 });
    expect((await reserve(unusedCustomerId(), line)).status).toBe(201);
    const below = await call('PATCH', path, { token, body: { maxUses: 1 } });
    expect(below.status).toBe(409);
    expect(below.body).toMatchObject({ reason: 'max_uses_below_uses', uses: 2 });
    expect(await usesOf(code)).toBe(2);
  });
});

describe("a late payment of a hold whose code's use went back", () => {
  const { keys, relay } = useStripeStandIn();

  /** A buyer's hold with `code`, checked out and paid with Stripe's events held back, then released by the buyer. */
  async function paidAfterRelease(eventId: number, typeId: number, code: string) {
    const { token, held, checkout } = await promoCheckout(eventId, typeId, code);
    const { order, payment } = checkout.body.data;
    const intent = { id: payment.clientSecret.split('_secret_')[0]!, clientSecret: payment.clientSecret };
    await standInControl(keys, 'POST', `payment_intents/${intent.id}/webhooks`, { url: relay.url, delayMs: 3_600_000 });
    await confirmAsBrowser(keys, intent, 'pm_card_visa');
    await standInControl(keys, 'POST', 'settle');
    expect((await call('DELETE', `${RESERVATIONS}/${held.body.data.id}`, { token })).body.data.status).toBe('released');
    return {
      orderId: Number(order.id),
      reservationId: Number(held.body.data.id),
      release: () => standInControl(keys, 'POST', `release?payment_intent=${intent.id}`),
    };
  }

  it('takes the use again with the tickets when it is still free', async () => {
    const event = await onSale();
    const typeId = event.ticketTypes[0]!.id;
    const code = await addPromoCode(event.id, { percentOff: 20, maxUses: 1 });
    const late = await paidAfterRelease(event.id, typeId, code.code);
    expect(await usesOf(code)).toBe(0);
    await late.release();
    expect((await claimedThenIssued(late.orderId)).status).toBe('active');
    expect(await usesOf(code)).toBe(1);
  });

  it('takes the use again from another shard when the one it went back to is used up meanwhile', async () => {
    const event = await onSale();
    const typeId = event.ticketTypes[0]!.id;
    // 200 uses: two shards of 100.
    const code = await addPromoCode(event.id, { percentOff: 20, maxUses: 200 });
    const late = await paidAfterRelease(event.id, typeId, code.code);
    const gaveBackTo = (await getReservation(late.reservationId))!.promo!.shard;
    // Its shard's 100 uses taken by other holds meanwhile (written as they would leave it: 100 holds are slow here).
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: tableKeys.promoUses(code.id, gaveBackTo),
        UpdateExpression: 'SET used = cap',
      }),
    );
    await late.release();
    expect((await claimedThenIssued(late.orderId)).status).toBe('active');
    expect((await getOrder(late.orderId))!.promo).toEqual({ codeId: code.id, code: code.code, shard: 1 - gaveBackTo });
    expect(await usesOf(code)).toBe(101);
  });

  it('is refunded in full when another hold took the use meanwhile, so the code is never used past maxUses', async () => {
    const event = await onSale();
    const typeId = event.ticketTypes[0]!.id;
    const code = await addPromoCode(event.id, { percentOff: 20, maxUses: 1 });
    const late = await paidAfterRelease(event.id, typeId, code.code);
    const other = await reserve(unusedCustomerId(), {
      eventId: event.id,
      lines: [{ typeId, quantity: 1 }],
      promoCode: code.code,
    });
    expect(other.status).toBe(201);
    await late.release();
    await claimedThenIssued(late.orderId);
    const refunded = (await getOrder(late.orderId))!;
    expect(refunded.status).toBe('refunded');
    // 25.50 less 20 %: 20.40 paid, and all of it back.
    expect(refunded.transactions.map((transaction) => transaction.amount)).toEqual([20.4, -20.4]);
    expect(await usesOf(code)).toBe(1);
    expect(await stockOf(typeId)).toMatchObject({ held: 1 });
  });
});
