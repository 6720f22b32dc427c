/**
 * The on-sale rush: buyers arriving within a few seconds for an event's tickets, each
 * reserving 1–4, most checking out with an Idempotency-Key (some sending it twice), paying at the Stripe
 * stand-in as Stripe.js does (some declined), some walking away from their hold, with Stripe's events sent
 * twice, out of order or late. A buyer refused `sold_out` waits in a queue (one availability read a second
 * admits as many as there are tickets back on sale) and tries again; a 429 waits its Retry-After. Used by
 * `npm run load:onsale` (onsale.ts) and test/deep/onsale-rush.test.ts; the checks: onsale-verify.ts.
 */
import { randomUUID } from 'node:crypto';
import { type Answer, dataOf, record, requestLimiter, send } from './onsale-http.ts';
import type { OnSaleOptions, OnSaleTarget, PreparedOnSale } from './onsale-setup.ts';
import { buyerPlan, type BuyerPlan } from './onsale-plan.ts';
import { WaitingRoom } from './onsale-room.ts';
import type { Outcome, Purchase, RushResult } from './onsale-outcomes.ts';

export interface RushOptions extends OnSaleOptions {
  /** Client networks the buyers come from (each its own source address): the per-network limit counts each. */
  networks: number;
  /** Requests in flight at most, the buyers' together. */
  concurrency: number;
  /** A seed for the buyers' choices (onsale-plan.ts). */
  seed: number;
  /** Whole-run bound: past it, buyers still waiting give up (and the run does not sell out). */
  maxMs: number;
  /** Told once every buyer's first reservation is answered: the end of the rush (the gate side stops there). */
  onFirstTriesAnswered?: () => void;
}

const CARD_OK = 'pm_card_visa';
const CARD_DECLINED = 'pm_card_chargeDeclined';
/** A buyer waits out Retry-After at most this long in all. */
const MAX_RATE_WAIT_MS = 150_000;
/** How often a buyer asks again after a hold answered `concurrent_update` (outraced on every try of its own). */
const MAX_RACED = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runOnSale(
  target: OnSaleTarget,
  prepared: PreparedOnSale,
  options: RushOptions,
  progress: (line: string) => void = () => {},
): Promise<RushResult> {
  const started = performance.now();
  const deadline = started + options.maxMs;
  const api: RushResult['api'] = [];
  const confirms: RushResult['confirms'] = [];
  const purchases: Purchase[] = [];
  const outcomes = {} as Record<Outcome, number>;
  let retriedAfter429 = 0;
  let rushEnd = started;
  let firstTriesAnswered = 0;
  const limited = requestLimiter(options.concurrency);
  const call = async (
    route: string,
    path: string,
    init: { method: string; token: string; key?: string; body?: unknown; network?: number },
    first = false,
  ) => {
    const answer: Answer = await limited(
      () =>
        send({
          method: init.method,
          url: `${target.apiUrl}${path}`,
          headers: { authorization: `Bearer ${init.token}`, ...(init.key ? { 'idempotency-key': init.key } : {}) },
          body: init.body,
          ...(init.network === undefined ? {} : { network: init.network }),
        }),
      first,
    );
    api.push({ ...record(route, answer), sentAt: performance.now() - answer.ms - started, first });
    return answer;
  };
  const stripe = (path: string, init: { form?: Record<string, string>; json?: unknown }) =>
    limited(() =>
      send({
        method: 'POST',
        url: `${target.payments.baseUrl}${path}`,
        ...(init.form
          ? {
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams(init.form).toString(),
            }
          : { headers: { authorization: `Bearer ${prepared.stripeSecretKey}` }, body: init.json ?? {} }),
      }),
    );
  const readAvailability = async () => {
    const answer = await call('GET /my-account/ticket-type/{eventId}', `/my-account/ticket-type/${prepared.eventId}`, {
      method: 'GET',
      token: prepared.buyers[0]!.token,
    });
    return new Map<number, number>(
      ((answer.body?.data ?? []) as { id: string; available: number }[]).map((entry) => [
        Number(entry.id),
        entry.available,
      ]),
    );
  };
  const room = new WaitingRoom(prepared.types, readAvailability);

  /** POST /my-account/reservations until held, sold out or out of bounds; 429s wait their Retry-After. */
  const reserve = async (n: number, line: { typeId: number; quantity: number }, first: boolean) => {
    const buyer = prepared.buyers[n]!;
    let waited = 0;
    for (;;) {
      const answer = await call(
        'POST /my-account/reservations',
        '/my-account/reservations',
        {
          method: 'POST',
          token: buyer.token,
          body: { eventId: prepared.eventId, lines: [line] },
          network: n % options.networks,
        },
        first,
      );
      if (answer.status !== 429) return answer;
      const seconds = Number(answer.headers['retry-after']);
      if (
        !Number.isFinite(seconds) ||
        waited + seconds * 1000 > MAX_RATE_WAIT_MS ||
        performance.now() + seconds * 1000 > deadline
      )
        return answer;
      retriedAfter429++;
      waited += seconds * 1000;
      await sleep(seconds * 1000);
    }
  };

  const buyer = async (n: number): Promise<Outcome> => {
    const plan: BuyerPlan = buyerPlan(options.seed, n);
    await sleep(started + (n / options.buyers) * options.seconds * 1000 - performance.now());
    const token = prepared.buyers[n]!.token;
    let line = { typeId: prepared.types[plan.typeIndex]!.id, quantity: plan.quantity };
    let comeback = false;
    let reservation: { id: number } | undefined;
    // Outraced for the last places on every try of its own, a hold answers 409 `concurrent_update`: a buyer asks again.
    let raced = 0;
    let firstAnswered = false;
    for (;;) {
      const answer = await reserve(n, line, !comeback);
      if (!comeback) rushEnd = Math.max(rushEnd, performance.now());
      if (!firstAnswered && ++firstTriesAnswered === options.buyers) options.onFirstTriesAnswered?.();
      firstAnswered = true;
      if (comeback) room.answered();
      if (answer.status === 201) {
        reservation = answer.body?.data as { id: number };
        break;
      }
      if (answer.status === 429) return 'gave_up_rate_limited';
      if (answer.status === 409 && answer.body?.reason === 'hold_limit_network') return 'network_capped';
      if (answer.status === 409 && answer.body?.reason === 'concurrent_update' && raced++ < MAX_RACED) continue;
      if (answer.status !== 409 || answer.body?.reason !== 'sold_out') return 'error';
      const offer = await room.wait(plan.quantity, deadline);
      if (!offer) return 'sold_out';
      line = offer;
      comeback = true;
    }
    // A buyer back from the queue came for the tickets: only a first try walks away.
    if (plan.abandon && !comeback) return 'abandoned';
    const attendees = Array.from({ length: line.quantity }, (_, k) => ({
      firstName: `Buyer${n}`,
      lastName: `Guest${k + 1}`,
      email: `buyer-${n}-${k + 1}@onsale.test`,
    }));
    const key = randomUUID();
    const path = `/my-account/reservations/${reservation!.id}/checkout`;
    const checkout = () =>
      call('POST /my-account/reservations/{id}/checkout', path, { method: 'POST', token, key, body: { attendees } });
    const first = await checkout();
    if (first.status === 409 && first.body?.reason === 'reservation_not_held') return 'lapsed_before_checkout';
    if (first.status !== 201) return 'error';
    const { order, payment } = dataOf<{ order: { id: string }; payment: { clientSecret: string } }>(first);
    const purchase: Purchase = {
      buyer: n,
      reservationId: reservation!.id,
      orderId: order.id,
      intentId: payment.clientSecret.split('_secret_')[0]!,
      quantity: line.quantity,
      typeId: line.typeId,
      outcome: 'paid',
    };
    purchases.push(purchase);
    if (plan.retryKey) {
      // The answer lost on the way: the same key again answers the same order and PaymentIntent.
      const again = await checkout();
      const same = again.body?.data as { order?: { id?: string }; payment?: { clientSecret?: string } } | undefined;
      if (again.status !== 201 || same?.order?.id !== order.id || same?.payment?.clientSecret !== payment.clientSecret)
        purchase.replayMismatch = `${again.status} order ${same?.order?.id} for ${order.id}`;
    }
    await stripe(`/_stand-in/payment_intents/${purchase.intentId}/webhooks`, {
      json: {
        url: target.payments.webhookUrl,
        ...(plan.twice ? { twice: true } : {}),
        ...(plan.outOfOrder ? { outOfOrder: true } : {}),
        ...(plan.lateMs ? { delayMs: plan.lateMs } : {}),
      },
    });
    const release = () =>
      call('DELETE /my-account/reservations/{id}', `/my-account/reservations/${reservation!.id}`, {
        method: 'DELETE',
        token,
      });
    const confirm = async (card: string) => {
      const answer = await stripe(`/v1/payment_intents/${purchase.intentId}/confirm`, {
        form: {
          payment_method: card,
          expected_payment_method_type: 'card',
          use_stripe_sdk: 'true',
          key: target.payments.publishableKey,
          client_secret: payment.clientSecret,
        },
      });
      confirms.push({ status: answer.status, card });
      return answer;
    };
    if (plan.releaseThenPay) {
      // Let go in one tab, paid in another: the payment takes the tickets again if still there, or is refunded.
      await release();
      await confirm(CARD_OK);
      purchase.outcome = 'paid_after_release';
    } else if (plan.decline) {
      await confirm(CARD_DECLINED);
      if (plan.retryCard) await confirm(CARD_OK);
      else {
        await release();
        purchase.outcome = 'declined_released';
      }
    } else await confirm(CARD_OK);
    return purchase.outcome;
  };

  const ticker = setInterval(() => {
    const held = api.filter((a) => a.route === 'POST /my-account/reservations' && a.status === 201).length;
    progress(
      `  ${((performance.now() - started) / 1000).toFixed(0)} s: ${api.length} answers, ${held} held, ${room.waiting} waiting`,
    );
  }, 10_000);
  const buyers = Array.from({ length: options.buyers }, (_, n) =>
    buyer(n)
      .catch(() => 'error' as const)
      .then((outcome) => {
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        room.finished();
      }),
  );
  const everySold = async () => {
    const answer = await call('GET /events/{id}', `/events/${prepared.eventId}`, {
      method: 'GET',
      token: prepared.adminToken,
    });
    const types =
      (answer.body?.data as { ticketTypes?: { sold: number; total: number }[] } | undefined)?.ticketTypes ?? [];
    return types.length > 0 && types.every((type) => type.sold === type.total);
  };
  const soldOut = await room.run(
    options.buyers,
    deadline,
    () => stripe('/_stand-in/release', {}).then(() => undefined),
    everySold,
  );
  await Promise.all(buyers);
  clearInterval(ticker);
  await stripe('/_stand-in/release', {});
  return {
    elapsedMs: performance.now() - started,
    rushMs: rushEnd - started,
    api,
    confirms,
    purchases,
    outcomes,
    retriedAfter429,
    soldOut,
  };
}
