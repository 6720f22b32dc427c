import { now } from '../../clock.ts';
import { allocateIds } from '../../data/counters.ts';
import { eventForSale, forgetEventForSale, keptEventForSale } from '../data/event-sale-cache.ts';
import { getEvent, listTicketTypes } from '../../events/data/events.ts';
import { requireSlots } from '../../data/rate-limits.ts';
import { readDecideWrite } from '../../data/read-decide-write.ts';
import { type CustomerHold, customerHoldFrom, customerHoldKey, holdReservation } from '../data/holds.ts';
import { getShippingMethod } from '../data/shipping-methods.ts';
import { HoldRefused, readShardsWith, type ReadShard } from '../data/stock.ts';
import { listWaveTimes } from '../../events/data/wave-times.ts';
import { type Event, saleCurrency, type TicketType } from '../../events/domain/event.ts';
import {
  DEFAULT_RESERVATION_MINUTES,
  MAX_TICKETS_PER_RESERVATION,
  type NewReservationBody,
  notOnSale,
  toReservationView,
  type Reservation,
} from '../domain/reservation.ts';
import { holdCaps, type HoldCaps } from '../domain/hold-limits.ts';
import { ConcurrentUpdate, Conflict, NotFound, ValidationError, type FieldProblem } from '../../errors.ts';
import { mayAccess } from '../../portal/data/customer-events.ts';
import { priceHold } from './hold-prices.ts';
import { knownSoldOut, planPromoUse, planStock, stockSample } from './hold-takes.ts';
import { promoDiscount } from '../domain/promo-code.ts';
import { findPromoCode } from '../data/promo-codes.ts';

/**
 * A network's reservations per minute (a household or office behind one address shares it). A customer has no
 * window of their own: what they may hold is bounded by the hold's own items (one holding reservation per event,
 * the cool-down after one that ended unpaid, `maxHeldPerCustomer`), and a window's write would be a tenth of the
 * hold's cost (README "Reservations").
 */
export const RESERVATIONS_PER_NETWORK = { name: 'RESERVATIONS_NETWORK', limit: 60, windowSeconds: 60 } as const;

const sequence = 'RESERVATION';

/**
 * `POST /my-account/reservations`: holds the lines' tickets for the event's reservation minutes, priced by the types'
 * prices and the shipping method's charges (the client sends no amount). A type this container found sold out a
 * moment ago, of an event it keeps, is refused first from memory alone (`soldOutFromMemory`: no table call, no window
 * counted); everything else is counted against the network's window first (429), then refused with 400 (an event the customer cannot access, as a missing one; a type, wave or shipping method not of
 * the event) or 409 `not_on_sale` (an unpublished event is that only to a customer who holds an order of it),
 * `max_per_order`, `hold_limit_customer`, `reservation_exists`, `hold_cool_down`, `hold_limit_network`, `sold_out`,
 * `amount_below_minimum`, `amount_above_maximum`, `shipping_charge_not_in_currency`, or a promo code's
 * `promo_code_invalid`, `promo_code_not_applicable`, `promo_code_used_up` (promo-code.ts `promoDiscount`, hold-takes.ts `planPromoUse`); nothing is held then.
 * A code's discount lowers the tickets' amount, and the hold takes one of its uses in its own transaction.
 */
export async function createReservation(customerId: number, network: string, request: NewReservationBody) {
  const remembered = soldOutFromMemory(request);
  if (remembered) throw remembered;
  await requireSlots(
    [{ ...RESERVATIONS_PER_NETWORK, subject: network }],
    (window) => `At most ${window.limit} reservations a minute per network.`,
  );
  const [{ event, types }, waves, method, promo] = await Promise.all([
    saleOf(customerId, request.eventId),
    request.lines.some((line) => line.waveTimeId !== undefined) ? listWaveTimes(request.eventId) : [],
    request.shippingMethodId === undefined ? undefined : shippingMethodOf(request.shippingMethodId),
    request.promoCode === undefined ? undefined : findPromoCode(request.eventId, request.promoCode),
  ]);
  const byId = new Map(types.map((type) => [type.id, type]));
  const at = now();
  const caps = checkHold(request, byId, new Set(waves.map((wave) => wave.id)), event, at);
  const typeIds = request.lines.map((line) => line.typeId);
  const discount = request.promoCode === undefined ? undefined : promoDiscount(request.promoCode, promo, at, typeIds);
  const plan = async (sampled?: readonly ReadShard[]) => ({
    takes: await planStock(request, byId, sampled),
    use: promo && (await planPromoUse(promo)),
  });
  // The sold-out memo again, for what the memory alone could not answer (a copy read just now; a wave, shipping
  // method or code named). Otherwise the customer's marker is read in the stock sample's BatchGetItem (a call fewer on
  // every hold), and a standing hold is refused before a sold-out type.
  const known = knownSoldOut(request, byId);
  if (known) throw known;
  const first = await readShardsWith(stockSample(request, byId), [customerHoldKey(customerId, event.id)]);
  const standing = customerHoldFrom(first.alongside[0], at);
  if (standing) throw holdStands(standing, at);
  const places = await plan(first.shards);

  const { lines, amounts } = priceHold(request.lines, byId, method, event, saleCurrency(event), discount);
  const id = await allocateIds(sequence);
  const minutes = event.reservationMinutes ?? DEFAULT_RESERVATION_MINUTES;
  const base = {
    id,
    customerId,
    eventId: event.id,
    status: 'held' as const,
    created: at.toISOString(),
    updated: at.toISOString(),
    expiresAt: new Date(at.getTime() + minutes * 60_000).toISOString(),
    network,
    lines,
    shippingMethodId: request.shippingMethodId ?? null,
    amounts,
  };
  try {
    return await readDecideWrite({
      subject: `The stock of event ${event.id}`,
      read: async (attempt) => (attempt === 0 ? places : await plan()),
      decide: ({ takes, use }) => {
        const reservation: Reservation = { ...base, takes, ...(use ? { promo: use } : {}) };
        return { write: () => held(reservation, caps, at), answer: toReservationView(reservation) };
      },
    });
  } catch (error) {
    // Every try lost its places to other holds between the read and the write: `sold_out` only when a fresh read
    // finds none left (planStock throws it, with what is left; planPromoUse `promo_code_used_up`); otherwise the
    // places are there and the buyer may retry.
    if (error instanceof ConcurrentUpdate) await plan();
    throw error;
  }
}

/**
 * `sold_out` from what this container keeps alone, before the network's window, or undefined (the window, then the
 * reads): the window protects the table and the stock, and this answer costs the table nothing and takes nothing,
 * telling no more than the public availability. Only when the event and its types are in the sale cache (looked at,
 * never filled: a miss reads nothing before the window), published (every customer may access it: `mayAccess` without
 * a read; a draft's copy is never trusted), the request names nothing the table would be read for (a wave, a
 * shipping method, a promo code) and passes every other check of the hold, so its answer is the one the full path
 * gives (a request refused otherwise is refused after the window, as before); then a type in the sold-out memo.
 */
function soldOutFromMemory(request: NewReservationBody): Conflict | undefined {
  if (request.shippingMethodId !== undefined || request.promoCode !== undefined) return undefined;
  if (request.lines.some((line) => line.waveTimeId !== undefined)) return undefined;
  const sale = keptEventForSale(request.eventId);
  if (!sale?.event.published) return undefined;
  const byId = new Map(sale.types.map((type) => [type.id, type]));
  try {
    checkHold(request, byId, new Set(), sale.event, now());
  } catch (error) {
    if (error instanceof ValidationError || error instanceof Conflict) return undefined;
    throw error;
  }
  return knownSoldOut(request, byId);
}

/** What a hold may ask of its event, from the event and types as read or kept (400, 409): no read; its caps. */
function checkHold(
  request: NewReservationBody,
  byId: Map<number, TicketType>,
  waves: Set<number>,
  event: Event,
  at: Date,
): HoldCaps {
  checkLines(request, byId, waves);
  const closed = notOnSale(event, at);
  if (closed) throw new Conflict(closed, 'not_on_sale');
  const quantity = request.lines.reduce((sum, line) => sum + line.quantity, 0);
  if (quantity > MAX_TICKETS_PER_RESERVATION)
    throw new Conflict(`A reservation holds at most ${MAX_TICKETS_PER_RESERVATION} tickets.`, 'max_per_order', {
      maxPerOrder: MAX_TICKETS_PER_RESERVATION,
    });
  const caps = holdCaps(event);
  checkCaps(quantity, caps);
  return caps;
}

/** Writes the hold: false when a shard read with stock was emptied before the write; the hold's own limits refuse. */
async function held(reservation: Reservation, caps: HoldCaps, at: Date): Promise<boolean> {
  try {
    await holdReservation(reservation, caps.perNetwork);
    return true;
  } catch (error) {
    if (!(error instanceof HoldRefused)) throw error;
    const { refusal } = error;
    if ('existing' in refusal) throw holdStands({ holding: refusal.existing }, at);
    if ('coolsUntil' in refusal) throw holdStands(refusal, at);
    if ('networkFull' in refusal) throw networkFull(caps);
    // A shard emptied between the read and the write (a stock shard's places, or a promo code shard's uses): plan again.
    return false;
  }
}

/**
 * The body's event and its types (a container's copy of a few seconds: selling/data/event-sale-cache.ts), when the
 * customer can access it (portal/data/customer-events.ts `mayAccess`: published, or they hold an order of it).
 */
async function saleOf(customerId: number, id: number) {
  const read = async () => {
    const [event, types] = await Promise.all([getEvent(id), listTicketTypes(id)]);
    return { event, types };
  };
  const sale = await eventOf(id, () => eventForSale(id, read));
  if (sale.event.published) return sale;
  // A draft sells nothing, and a copy may predate its publication: read afresh (no rush holds a draft).
  forgetEventForSale(id);
  const fresh = await eventOf(id, () => eventForSale(id, read));
  if (!(await mayAccess(customerId, fresh.event))) throw unknownEvent(id);
  return fresh;
}

/**
 * The event read by `read`: one that does not exist is bad input naming the field, as a type or a shipping method,
 * and so is an unpublished one the customer holds no order for, word for word, so a hold tells no customer which
 * drafts exist.
 */
async function eventOf<T>(id: number, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
    throw unknownEvent(id);
  }
}

const unknownEvent = (id: number) =>
  new ValidationError('Unknown event.', [{ path: 'body.eventId', message: `Event ${id} does not exist.` }]);

async function shippingMethodOf(id: number) {
  try {
    return await getShippingMethod(id);
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
    throw new ValidationError('Unknown shipping method.', [
      { path: 'body.shippingMethodId', message: `Shipping method ${id} does not exist.` },
    ]);
  }
}

/** The lines' types and waves are the event's, each type and wave once (400 naming the line). Also the box office's. */
export function checkLines(
  request: Pick<NewReservationBody, 'eventId' | 'lines'>,
  types: Map<number, TicketType>,
  waves: Set<number>,
): void {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  request.lines.forEach((line, n) => {
    if (!types.has(line.typeId))
      problems.push({
        path: `body.lines.${n}.typeId`,
        message: `Ticket type ${line.typeId} is not a type of event ${request.eventId}.`,
      });
    if (line.waveTimeId !== undefined && !waves.has(line.waveTimeId))
      problems.push({
        path: `body.lines.${n}.waveTimeId`,
        message: `Wave time ${line.waveTimeId} is not a wave of event ${request.eventId}.`,
      });
    const key = `${line.typeId}#${line.waveTimeId ?? ''}`;
    if (seen.has(key))
      problems.push({
        path: `body.lines.${n}`,
        message: 'names the same type and wave as an earlier line: add up the quantities',
      });
    seen.add(key);
  });
  if (problems.length) throw new ValidationError('The reservation does not fit its event.', problems);
}

/** The event's caps on what one customer and one network hold at once (README "Reservations": hoarding). */
function checkCaps(quantity: number, caps: HoldCaps): void {
  if (quantity > caps.perCustomer)
    throw new Conflict(
      `A customer holds at most ${caps.perCustomer} tickets of this event at once.`,
      'hold_limit_customer',
      { maxHeldPerCustomer: caps.perCustomer },
    );
  // More than the network may hold in all: refused before any write (the count's condition takes the rest).
  if (quantity > caps.perNetwork) throw networkFull(caps);
}

// The count itself stays unsaid: it is other customers' business.
const networkFull = (caps: HoldCaps) =>
  new Conflict(
    `Your network holds as many tickets of this event as it may at once (${caps.perNetwork}): try again when some are bought or let go.`,
    'hold_limit_network',
    { maxHeldPerNetwork: caps.perNetwork },
  );

/** 409 `hold_cool_down` with when the customer may hold again (also as `Retry-After`). */
class HoldCoolingDown extends Conflict {
  constructor(
    coolsUntil: string,
    readonly retryAfterSeconds: number,
  ) {
    super(
      `Your last hold of this event ended moments ago: you may hold it again from ${coolsUntil}.`,
      'hold_cool_down',
      { coolsUntil, retryAfterSeconds },
    );
  }
}

/** The customer's standing hold of the event refuses another: one holding (409 `reservation_exists`), or a cool-down. */
function holdStands(standing: CustomerHold, at: Date): Conflict {
  if ('coolsUntil' in standing)
    return new HoldCoolingDown(
      standing.coolsUntil,
      Math.max(1, Math.ceil((Date.parse(standing.coolsUntil) - at.getTime()) / 1000)),
    );
  return new Conflict(
    `You hold reservation ${standing.holding} for this event: release it or check it out first.`,
    'reservation_exists',
    { reservationId: standing.holding },
  );
}
