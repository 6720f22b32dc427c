import { randomUUID } from 'node:crypto';
import { type Answer, dataOf, requestLimiter, send } from '../load/onsale-http.ts';
import { type OnSaleTarget, type PreparedOnSale, prepareOnSale } from '../load/onsale-setup.ts';
import type { MeasuredSale } from './heat-figures.ts';

/**
 * The heat bench's sale (heat.ts): two events on sale at once through the API, prepared as `npm run load:onsale`
 * prepares its event (onsale-setup.ts: made and published by an organiser, buyers' accounts), then each buyer holds
 * two tickets, checks out, pays at the Stripe stand-in as Stripe.js does, and waits until its order is active with
 * its two tickets (the stand-in's signed event reaches the webhook route; issuing may happen behind it). Every
 * buyer pays: what a walked-away hold costs afterwards (its lapse) is not part of the target's rates.
 */
export const TICKETS_PER_ORDER = 2;
const ISSUED_WITHIN_MS = 120_000;
/**
 * The attendees' names: a ticket's search tokens are its words' prefixes, each an index partition, so names that
 * all began alike would make one partition look as hot as every sale together. Drawn from these, they spread as a
 * small crowd's do (a real sale's spread wider, its commonest prefixes aside).
 */
const FIRST_NAMES = [
  'Amira',
  'Bram',
  'Chloé',
  'Daan',
  'Emma',
  'Finn',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Kiki',
  'Lars',
];
const LAST_NAMES = ['Mulder', 'Nagy', 'Okafor', 'Peeters', 'Quist', 'Rossi', 'Smit', 'Tanaka', 'Ulusoy', 'Visser'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface HeatSaleOptions {
  /** Buyers per event. */
  buyers: number;
  /** Tickets per event: raised to what the buyers take. */
  tickets: number;
  /** The window in which each event's buyers arrive. */
  seconds: number;
  /** Requests in flight at most, every buyer's together. */
  concurrency: number;
}

/** A buyer that did not end with an issued order: where it stopped, for the report. */
export interface Stopped {
  event: number;
  step: string;
  status: number;
  reason?: string;
}

/** The events, made and published, with their buyers (outside what is recorded). */
export async function prepareHeatSale(target: OnSaleTarget, options: HeatSaleOptions, log: (line: string) => void) {
  // Three quarters and a quarter of the tickets in two types, as the on-sale rush: buyers alternate between them.
  const tickets = Math.max(options.tickets, options.buyers * TICKETS_PER_ORDER * 2);
  const events: PreparedOnSale[] = [];
  for (let n = 0; n < 2; n++)
    events.push(await prepareOnSale(target, { buyers: options.buyers, tickets, seconds: options.seconds }, log));
  return events;
}

/** Runs both events' sales at once; answers what each sold (holds, paid orders issued) and where buyers stopped. */
export async function runHeatSale(
  target: OnSaleTarget,
  events: readonly PreparedOnSale[],
  options: HeatSaleOptions,
): Promise<{ sale: MeasuredSale; stopped: Stopped[] }> {
  const limited = requestLimiter(options.concurrency);
  const started = performance.now();
  const sale: MeasuredSale = { events: events.map((event) => ({ id: event.eventId, holds: 0, orders: 0 })) };
  const stopped: Stopped[] = [];

  const buyer = async (prepared: PreparedOnSale, tally: MeasuredSale['events'][number], n: number, network: number) => {
    await sleep(started + (n / options.buyers) * options.seconds * 1000 - performance.now());
    const token = prepared.buyers[n]!.token;
    // An Idempotency-Key on the checkout only, as the on-sale rush's buyers send (onsale-core.ts).
    const api = (method: string, path: string, body?: unknown, bearer = token, key?: string) =>
      limited(() =>
        send({
          method,
          url: `${target.apiUrl}${path}`,
          headers: { authorization: `Bearer ${bearer}`, ...(key ? { 'idempotency-key': key } : {}) },
          body,
          network,
        }),
      );
    const stop = (step: string, answer: Answer) => {
      const reason = answer.body?.reason;
      stopped.push({ event: tally.id, step, status: answer.status, ...(typeof reason === 'string' ? { reason } : {}) });
    };
    const typeId = prepared.types[n % prepared.types.length]!.id;
    const held = await api('POST', '/my-account/reservations', {
      eventId: prepared.eventId,
      lines: [{ typeId, quantity: TICKETS_PER_ORDER }],
    });
    if (held.status !== 201) return stop('hold', held);
    tally.holds++;
    const reservation = dataOf<{ id: number }>(held);
    const attendees = Array.from({ length: TICKETS_PER_ORDER }, (_, k) => {
      const person = network * TICKETS_PER_ORDER + k;
      const firstName = FIRST_NAMES[person % FIRST_NAMES.length]!;
      const lastName = LAST_NAMES[Math.floor(person / FIRST_NAMES.length) % LAST_NAMES.length]!;
      return { firstName, lastName, email: `${lastName.toLowerCase()}.${person}@example.test` };
    });
    const checkout = await api(
      'POST',
      `/my-account/reservations/${reservation.id}/checkout`,
      { attendees },
      token,
      randomUUID(),
    );
    if (checkout.status !== 201) return stop('checkout', checkout);
    const { order, payment } = dataOf<{ order: { id: string }; payment: { clientSecret: string } }>(checkout);
    const confirm = await limited(() =>
      send({
        method: 'POST',
        url: `${target.payments.baseUrl}/v1/payment_intents/${payment.clientSecret.split('_secret_')[0]}/confirm`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          payment_method: 'pm_card_visa',
          expected_payment_method_type: 'card',
          use_stripe_sdk: 'true',
          key: target.payments.publishableKey,
          client_secret: payment.clientSecret,
        }).toString(),
      }),
    );
    if (confirm.status !== 200) return stop('payment', confirm);
    const issued = await issuedOrder(() => api('GET', `/orders/${order.id}`, undefined, prepared.adminToken));
    if (issued.status !== 200) return stop('issuing', issued);
    tally.orders++;
  };

  await Promise.all(
    events.flatMap((prepared, e) =>
      Array.from({ length: options.buyers }, (_, n) =>
        buyer(prepared, sale.events[e]!, n, e * options.buyers + n).catch((error: unknown) =>
          stopped.push({ event: prepared.eventId, step: String(error), status: 0 }),
        ),
      ),
    ),
  );
  return { sale, stopped };
}

/** The order once active with its tickets (200), or the last answer when it is not within ISSUED_WITHIN_MS. */
async function issuedOrder(read: () => Promise<Answer>): Promise<Answer> {
  const deadline = performance.now() + ISSUED_WITHIN_MS;
  for (;;) {
    const answer = await read();
    const order = dataOf<{ status?: string; ticketIds?: unknown[] } | undefined>(answer);
    if (answer.status === 200 && order?.status === 'active' && order.ticketIds?.length === TICKETS_PER_ORDER)
      return answer;
    if (performance.now() > deadline) return { ...answer, status: answer.status === 200 ? 408 : answer.status };
    await sleep(1_000);
  }
}
