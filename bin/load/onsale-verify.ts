import type { RushResult } from './onsale-outcomes.ts';
import { dataOf, send } from './onsale-http.ts';
import type { OnSaleTarget, PreparedOnSale } from './onsale-setup.ts';
import { listedTickets, walk } from './onsale-lists.ts';

/**
 * What an on-sale rush (onsale-core.ts) must leave true, read from the API's own answers (and the Stripe
 * stand-in's record of its events and refunds), never from the table: every failure is a sentence.
 */
interface Ticket {
  id: number;
  typeId: number;
  orderId: number | null;
  barcode: string;
  processState: number;
  deleted: number;
}

interface Order {
  id: string;
  status: string;
  ticketIds: string[];
  payment: { transactions: { amount: number; reference: string; processor: string }[] };
}

const ACTIVE = new Set([1, 2]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The statuses the API answered: no 5xx, no lost connection; refusals only 409, and 429 with Retry-After. */
export function checkAnswers(result: RushResult): string[] {
  const failures: string[] = [];
  const bad = new Map<string, number>();
  for (const answer of result.api) {
    const refused = answer.status >= 400;
    const allowed = answer.status === 409 || (answer.status === 429 && answer.retryAfter !== undefined);
    if (answer.status === 0 || answer.status >= 500 || (refused && !allowed)) {
      const key = `${answer.route} ${answer.status}${answer.reason ? ` ${answer.reason}` : ''}`;
      bad.set(key, (bad.get(key) ?? 0) + 1);
    }
  }
  for (const [key, n] of bad) failures.push(`${n}× ${key} (only 2xx, 409 and 429 with Retry-After are allowed)`);
  for (const purchase of result.purchases)
    if (purchase.replayMismatch)
      failures.push(`order ${purchase.orderId}: the retried checkout answered ${purchase.replayMismatch}`);
  if (result.outcomes.error) failures.push(`${result.outcomes.error} buyers ended on an unexpected answer`);
  if (!result.soldOut) failures.push('the event did not sell out before the run ended');
  return failures;
}

/**
 * Waits for the end state (the stand-in's deliveries settled, every hold lapsed: the lapse job runs every
 * 5 s under `npm start`), then checks it:
 * - 0 oversold: each type's `sold` at most its `total`, its active tickets as many as `sold`;
 * - `GET /tickets/check-in-stats` `soldTickets` = the sum of `sold` = the active tickets;
 * - nothing held: the portal's `available` = `total - sold` per type;
 * - every succeeded PaymentIntent: exactly one order, `active` with its tickets, or `refunded` with one refund
 *   the stand-in made for that intent; an unpaid one `awaiting_payment` or `expired` without tickets; no order
 *   beyond the checkouts' and none stuck `pending`;
 * - no ticket or barcode twice, every active ticket in its order's `ticketIds`.
 */
export async function verifyOnSale(
  target: OnSaleTarget,
  prepared: PreparedOnSale,
  result: RushResult,
  progress: (line: string) => void = () => {},
): Promise<string[]> {
  const failures = checkAnswers(result);
  const admin = (path: string) =>
    send({
      method: 'GET',
      url: `${target.apiUrl}${path}`,
      headers: { authorization: `Bearer ${prepared.adminToken}` },
    });
  const stripe = (method: string, path: string) =>
    send({
      method,
      url: `${target.payments.baseUrl}${path}`,
      headers: { authorization: `Bearer ${prepared.stripeSecretKey}` },
    });
  await stripe('POST', '/_stand-in/release');
  failures.push(...(await redeliver(stripe, progress)));

  const state = async () => {
    const [event, portal, orders] = await Promise.all([
      admin(`/events/${prepared.eventId}`),
      send({
        method: 'GET',
        url: `${target.apiUrl}/my-account/ticket-type/${prepared.eventId}`,
        headers: { authorization: `Bearer ${prepared.buyers[0]!.token}` },
      }),
      walk<Order>(target, prepared.adminToken, `/orders?eventId=${prepared.eventId}`).then(({ items }) => items),
    ]);
    const { ticketTypes: types } = dataOf<{ ticketTypes: { id: number; sold: number; total: number }[] }>(event);
    const available = new Map<number, number>(
      dataOf<{ id: string; available: number }[]>(portal).map((entry) => [Number(entry.id), entry.available]),
    );
    const settled =
      types.every((type) => available.get(type.id) === type.total - type.sold) &&
      !orders.some((order) => order.status === 'pending');
    return { types, available, orders, settled };
  };
  // A hold lapses after its minutes, and the job runs every few seconds: wait that long and a little more.
  const until = performance.now() + (prepared.reservationMinutes * 60 + 30) * 1000;
  let end = await state();
  while (!end.settled && performance.now() < until) {
    await sleep(2_000);
    end = await state();
  }
  const { types, available, orders } = end;

  const tickets = await listedTickets<Ticket>(target, prepared, failures);
  const active = tickets.filter((ticket) => ACTIVE.has(ticket.processState) && !ticket.deleted);
  const ids = new Set(active.map((ticket) => ticket.id));
  const barcodes = new Set(active.map((ticket) => ticket.barcode));
  if (ids.size !== active.length) failures.push(`${active.length - ids.size} tickets listed twice`);
  if (barcodes.size !== active.length) failures.push(`${active.length - barcodes.size} barcodes on two tickets`);
  for (const type of types) {
    const activeOfType = active.filter((ticket) => ticket.typeId === type.id).length;
    if (type.sold > type.total) failures.push(`type ${type.id} OVERSOLD: sold ${type.sold} of ${type.total}`);
    if (activeOfType > type.total)
      failures.push(`type ${type.id} OVERSOLD: ${activeOfType} active tickets of ${type.total}`);
    if (activeOfType !== type.sold) failures.push(`type ${type.id}: sold ${type.sold}, ${activeOfType} active tickets`);
    if (available.get(type.id) !== type.total - type.sold)
      failures.push(
        `type ${type.id}: available ${available.get(type.id)}, total - sold is ${type.total - type.sold} (tickets still held)`,
      );
  }
  const stats = (await admin(`/tickets/check-in-stats?events=${prepared.eventId}`)).body?.data as {
    soldTickets: number;
  };
  const sold = types.reduce((sum, type) => sum + type.sold, 0);
  if (stats.soldTickets !== sold || stats.soldTickets !== active.length)
    failures.push(
      `check-in-stats soldTickets ${stats.soldTickets}, types' sold ${sold}, active tickets ${active.length}`,
    );

  failures.push(...(await checkPayments(result, orders, active, stripe)));
  return failures;
}

interface Delivery {
  eventId: string;
  type: string;
  state: string;
  status?: number;
}

/**
 * Stripe sends an event again while its endpoint answers other than 2xx or not within its timeout; the stand-in
 * sends once: the events none of whose deliveries was answered 2xx are sent again, up to 3 rounds 5 s apart. An
 * answer other than 2xx is a failure of the run; a delivery the stand-in gave up on after its 10 s is resent and
 * counted (`progress`): on a busy machine the webhook's issuing outlasts it, and the end state shows any harm.
 */
async function redeliver(
  stripe: (method: string, path: string) => ReturnType<typeof send>,
  progress: (line: string) => void,
): Promise<string[]> {
  const failures: string[] = [];
  for (let round = 1; round <= 3; round++) {
    await stripe('POST', '/_stand-in/settle');
    const deliveries = dataOf<Delivery[]>(await stripe('GET', '/_stand-in/deliveries'));
    const answered = new Set(
      deliveries.filter((d) => d.state === 'sent' && (d.status ?? 500) < 300).map((d) => d.eventId),
    );
    const unanswered = deliveries.filter((d) => !answered.has(d.eventId) && d.state !== 'held');
    if (!unanswered.length) return failures;
    const refused = unanswered.filter((d) => d.state === 'sent');
    if (refused.length)
      failures.push(
        `Stripe's deliveries answered other than 2xx (round ${round}): ${refused.map((d) => `${d.type} ${d.status}`).join(', ')}`,
      );
    const events = new Set(unanswered.map((d) => d.eventId));
    progress(
      `  round ${round}: ${events.size} Stripe events resent (${unanswered.length - refused.length} deliveries unanswered within 10 s, ${refused.length} refused)`,
    );
    for (const eventId of events) await stripe('POST', `/_stand-in/events/${eventId}/resend`);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
  return failures;
}

/** Every succeeded payment exactly one paid order with its tickets, or one refund; no order beyond the checkouts'. */
async function checkPayments(
  result: RushResult,
  orders: Order[],
  active: Ticket[],
  stripe: (method: string, path: string) => ReturnType<typeof send>,
): Promise<string[]> {
  const failures: string[] = [];
  const events = (await stripe('GET', '/_stand-in/events')).body?.data as {
    type: string;
    data: { object: { id: string; object: string } };
  }[];
  const succeeded = new Set(
    events.filter((event) => event.type === 'payment_intent.succeeded').map((event) => event.data.object.id),
  );
  const byId = new Map(orders.map((order) => [order.id, order]));
  const checkedOut = new Set(result.purchases.map((purchase) => purchase.orderId));
  const stray = orders.filter((order) => !checkedOut.has(order.id));
  if (stray.length)
    failures.push(
      `${stray.length} orders no checkout answered (duplicates?): ${stray
        .slice(0, 5)
        .map((o) => o.id)
        .join(', ')}`,
    );
  if (orders.some((order) => order.status === 'pending'))
    failures.push(
      `orders stuck pending: ${orders
        .filter((o) => o.status === 'pending')
        .map((o) => o.id)
        .join(', ')}`,
    );
  const ticketsById = new Map(active.map((ticket) => [String(ticket.id), ticket]));
  let inOrders = 0;
  for (const purchase of result.purchases) {
    const order = byId.get(purchase.orderId);
    const paying = orders.filter((o) =>
      o.payment.transactions.some((t) => t.amount > 0 && t.reference === purchase.intentId),
    );
    if (!order) {
      failures.push(`order ${purchase.orderId} (intent ${purchase.intentId}) is not listed`);
      continue;
    }
    if (!succeeded.has(purchase.intentId)) {
      // Still awaiting payment (a checkout holds its reservation 15 minutes, longer than a run) or `expired` (its
      // reservation released or lapsed first): either way without tickets.
      if (!['awaiting_payment', 'expired'].includes(order.status) || order.ticketIds.length)
        failures.push(
          `order ${order.id}: ${order.status} with ${order.ticketIds.length} tickets, its payment never succeeded`,
        );
      continue;
    }
    if (paying.length !== 1 || paying[0]!.id !== order.id)
      failures.push(
        `intent ${purchase.intentId}: paid ${paying.length} orders (${paying.map((o) => o.id).join(', ')}), expected order ${order.id} alone`,
      );
    if (order.status === 'active') {
      const tickets = order.ticketIds.map((id) => ticketsById.get(id));
      inOrders += tickets.length;
      if (tickets.length !== purchase.quantity || tickets.some((t) => !t || t.orderId !== Number(order.id)))
        failures.push(
          `order ${order.id}: ${tickets.filter(Boolean).length} active tickets of its ${purchase.quantity}`,
        );
    } else if (order.status === 'refunded') {
      const refunds = order.payment.transactions.filter((t) => t.amount < 0);
      const refund =
        refunds.length === 1
          ? ((await stripe('GET', `/v1/refunds/${refunds[0]!.reference}`)).body as
              | { payment_intent?: string; status?: string }
              | undefined)
          : undefined;
      if (refund?.payment_intent !== purchase.intentId || refund?.status !== 'succeeded')
        failures.push(
          `order ${order.id}: refunded, but ${refunds.length} refunds on it and the stand-in's is ${JSON.stringify(refund?.status)}`,
        );
    } else failures.push(`order ${order.id}: ${order.status} though intent ${purchase.intentId} succeeded`);
  }
  if (inOrders !== active.length) failures.push(`${active.length} active tickets, ${inOrders} in the paid orders`);
  return failures;
}
