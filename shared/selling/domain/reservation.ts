import * as z from '../../schema.ts';
import { bodyId } from '../../request-fields.ts';
import type { Event } from '../../events/domain/event.ts';
import type { ReservationAmounts, ReservationLine } from './sale-prices.ts';
import { shippingCharge } from './shipping-method.ts';

/**
 * A reservation: tickets of one event held for a customer for the event's reservation
 * minutes (pure rules; shared/selling/data/reservations.ts stores them). Its states:
 *
 *   held ──► checked_out ──► paid
 *     │           │
 *     └───────────┴──► released (the customer let go) | lapsed (its minutes ran out)
 *
 * `held` and `checked_out` hold stock; `paid` turned it into sold tickets; `released` and
 * `lapsed` gave it back. Every move is a conditional write on the state read, so a payment
 * and a lapse racing for one reservation cannot both win.
 */
export const RESERVATION_STATES = ['held', 'checked_out', 'paid', 'released', 'lapsed'] as const;
export type ReservationState = (typeof RESERVATION_STATES)[number];

/** The states holding stock (their reservation is the customer's active one for the event). */
export const HOLDING_STATES: readonly ReservationState[] = ['held', 'checked_out'];

const NEXT: Record<ReservationState, readonly ReservationState[]> = {
  held: ['checked_out', 'paid', 'released', 'lapsed'],
  checked_out: ['paid', 'released', 'lapsed'],
  paid: [],
  released: [],
  lapsed: [],
};

/** The states a reservation may move to `to` from. */
export const statesBefore = (to: ReservationState): ReservationState[] =>
  RESERVATION_STATES.filter((from) => NEXT[from].includes(to));

export const DEFAULT_RESERVATION_MINUTES = 10;
export const MIN_RESERVATION_MINUTES = 1;
export const MAX_RESERVATION_MINUTES = 60;

/**
 * Tickets one reservation holds at most. The spec has no per-order maximum on events or
 * types, so this is ours (as pretix's and Eventbrite's default of 10 per order): 409
 * `max_per_order` past it.
 */
export const MAX_TICKETS_PER_RESERVATION = 10;
/** Lines one reservation names at most (a line per type and wave; a request past it is a 400). */
export const MAX_RESERVATION_LINES = 10;

/**
 * A type's stock is spread over `stockShardsFor(total)` items, each in a partition of its own
 * (`STOCK#<typeId>#<shard>`): one per STOCK_PER_SHARD tickets, at least 1, at most MAX_STOCK_SHARDS.
 * The arithmetic, at the target of 1,000 holds a second on one type: every hold is a transaction on
 * (usually) one shard, every ticket sold from a hold moves `held` → `sold` (about 600 a second for 300
 * orders of 2), and a hold that ends unpaid gives its places back (up to 700 a second): about 2,000
 * transactions a second on the type's shards. A transaction conflicts with every other on its item
 * while it runs, so an item is held to about 50 transactions a second: 2,000 / 50 = 40 shards at
 * least (fewer once an order's tickets are issued in one transaction). 64 leave room for the random
 * spread being uneven (31 a second each on average, 62 write units: far under an item's 1,000). A small type needs no
 * such rate (50 tickets sell out in the first second of a rush whatever the shards) and keeps few:
 * its last tickets are then rarely split over shards a buyer's line must be pieced from.
 */
export const MAX_STOCK_SHARDS = 64;
export const STOCK_PER_SHARD = 100;
export const stockShardsFor = (total: number): number =>
  Math.max(1, Math.min(MAX_STOCK_SHARDS, Math.floor(total / STOCK_PER_SHARD)));

/**
 * The shards a hold reads first: this many, at random (all of a type with no more). Almost always one
 * of them holds the whole line; only near the end of a sale, when none does, are all the type's shards
 * read (selling/use-cases/hold-takes.ts `planStock`), so a hold never answers sold out while some shard has stock.
 */
export const STOCK_SAMPLE = 4;

/** `count` distinct shards of `shards`, at random (`random` in [0, 1)); all of them when there are no more. */
export function sampleShards(shards: number, count: number, random: () => number = Math.random): number[] {
  const all = Array.from({ length: shards }, (_, shard) => shard);
  for (let n = 0; n < Math.min(count, shards); n++) {
    const pick = n + Math.floor(random() * (shards - n));
    [all[n], all[pick]] = [all[pick]!, all[n]!];
  }
  return all.slice(0, Math.min(count, shards));
}

/**
 * The shards of several types created in one transaction that has `room` actions left for
 * their stock: each type at least one (undefined when even that does not fit: the caller's
 * 400), then one more at a time, type after type, up to its `stockShardsFor`, while room is
 * left. A type so created keeps the shards it started with (fewer concurrent holds: about 50
 * transactions a second per shard); a type added on its own gets its full count.
 */
export function creationShards(totals: readonly number[], room: number): number[] | undefined {
  if (room < totals.length) return undefined;
  const shards = totals.map(() => 1);
  let left = room - totals.length;
  for (let grew = true; grew && left > 0; ) {
    grew = false;
    for (const [i, total] of totals.entries())
      if (left > 0 && shards[i]! < stockShardsFor(total)) {
        shards[i]!++;
        left--;
        grew = true;
      }
  }
  return shards;
}

/** How a type's `total` starts spread over its shards: as evenly as whole tickets allow, the remainder on the first. */
export function spreadStock(total: number, shards: number): number[] {
  const each = Math.floor(total / shards);
  return Array.from({ length: shards }, (_, shard) => each + (shard === 0 ? total - each * shards : 0));
}

/** One stock shard as read: what is left of it for sale and what holds have taken. */
export interface StockShard {
  shard: number;
  left: number;
  held: number;
}

/** A part of a line taken from one shard. */
export interface StockTake {
  typeId: number;
  shard: number;
  quantity: number;
}

/**
 * Where `quantity` tickets of a type come from: one shard holding them all (a random one
 * of those, `pick`, so buyers spread over the shards), else the fullest shards in turn.
 * Undefined when the shards hold fewer than `quantity` together.
 */
export function planTakes(
  typeId: number,
  shards: readonly StockShard[],
  quantity: number,
  pick: (n: number) => number = (n) => Math.floor(Math.random() * n),
): StockTake[] | undefined {
  const whole = shards.filter((shard) => shard.left >= quantity);
  if (whole.length) return [{ typeId, shard: whole[pick(whole.length)]!.shard, quantity }];
  const takes: StockTake[] = [];
  let missing = quantity;
  for (const shard of [...shards].sort((a, b) => b.left - a.left)) {
    if (missing <= 0 || shard.left <= 0) break;
    const taken = Math.min(shard.left, missing);
    takes.push({ typeId, shard: shard.shard, quantity: taken });
    missing -= taken;
  }
  return missing > 0 ? undefined : takes;
}

/**
 * The take each attendee's ticket is issued from, by position: attendees in order, each from the first take of its
 * type with a place left. A checkout's issue (checkout-payment.ts) and a cancel that stops it (what the attendees not
 * issued still hold) follow this one rule, so the places given back are the shards' own.
 */
export function attendeeTakes(takes: readonly StockTake[], attendees: readonly { typeId: number }[]): StockTake[] {
  const left = takes.map((take) => ({ ...take }));
  return attendees.map(({ typeId }) => {
    const take = left.find((candidate) => candidate.typeId === typeId && candidate.quantity > 0);
    if (!take) throw new Error(`No place of type ${typeId} left in the takes for an attendee.`);
    take.quantity--;
    return { typeId, shard: take.shard, quantity: 1 };
  });
}

/** The places the attendees at positions not `issued` hold, one take per shard: what a stopped issue gives back. */
export function unissuedTakes(
  takes: readonly StockTake[],
  attendees: readonly { typeId: number }[],
  issued: ReadonlySet<number>,
): StockTake[] {
  const byShard = new Map<string, StockTake>();
  for (const [position, take] of attendeeTakes(takes, attendees).entries()) {
    if (issued.has(position)) continue;
    const key = `${take.typeId}#${take.shard}`;
    const merged = byShard.get(key);
    if (merged) merged.quantity++;
    else byShard.set(key, { ...take });
  }
  return [...byShard.values()];
}

/** Why an event sells nothing now, or undefined when it is on sale. */
export function notOnSale(event: Pick<Event, 'published' | 'onSaleDate' | 'cutOff'>, at: Date): string | undefined {
  if (!event.published) return 'The event is not published.';
  if (event.onSaleDate && at < new Date(event.onSaleDate)) return `Sales open at ${event.onSaleDate}.`;
  if (event.cutOff && at >= new Date(event.cutOff)) return `Sales closed at ${event.cutOff}.`;
  return undefined;
}

/** A shipping method's charges (shared/selling/domain/shipping-method.ts prices them). */
export type ShippingCharge = Parameters<typeof shippingCharge>[0];

/** Shipping for `tickets` tickets in the event's currency, none without a method. */
export const shippingFor = (method: ShippingCharge | undefined, tickets: number, currency: string): number =>
  method ? shippingCharge(method, tickets, currency) : 0;

/** The promo code's use a hold takes (shared/selling/domain/promo-code.ts): which code, and the shard it is given back to. */
export interface PromoUse {
  codeId: number;
  code: string;
  shard: number;
}

/** A reservation as stored and answered. */
export interface Reservation {
  id: number;
  customerId: number;
  eventId: number;
  status: ReservationState;
  created: string;
  /** ISO-8601 UTC: when it lapses unless paid. */
  expiresAt: string;
  lines: ReservationLine[];
  shippingMethodId: number | null;
  amounts: ReservationAmounts;
  /** Which shards its stock came from (given back to the same ones). */
  takes: StockTake[];
  /** The last move: when, and why (`released`, `lapsed`). */
  updated: string;
  /** The checkout's order (set with `checked_out`). */
  orderId?: number;
  /** The network it was held from, whose count of held tickets it is part of until it ends (none before the caps). */
  network?: string;
  /** The promo code's use it holds (given back to the same shard when it ends unpaid). */
  promo?: PromoUse;
  /**
   * Where its due entry is filed when not at `expiresAt`: the hold's expiry, kept by a checkout that moves `expiresAt`
   * on (the lapse re-files the entry of one still unpaid then: shared/selling/data/reservation-due.ts).
   */
  dueAt?: string;
}

/** A line as the buyer sees it (which part is the fee's is ours), its figures stored only when not 0 answered 0. */
export function lineView(line: ReservationLine) {
  const { typeId, name, quantity, waveTimeId, unitPrice, amount } = line;
  const [discount, fee, tax] = [line.discount ?? 0, line.fee ?? 0, line.tax ?? 0];
  return { typeId, name, quantity, waveTimeId, unitPrice, discount, fee, tax, amount };
}

/** What the customer sees of their reservation (the stock's shards are ours). */
export function toReservationView(reservation: Reservation) {
  const {
    takes: _takes,
    customerId: _customer,
    created: _created,
    updated: _updated,
    orderId: _order,
    network: _network,
    dueAt: _dueAt,
    promo,
    ...view
  } = reservation;
  return {
    ...view,
    lines: view.lines.map(lineView),
    promoCode: promo?.code ?? null,
  };
}

/** A hold's fields, which the box office's sale (box-office-body.ts) shares: a function, so each is built where used. */
export const reservationFields = () => ({
  eventId: bodyId('eventId'),
  lines: z
    .array(
      z.strictObject({
        typeId: bodyId('typeId'),
        // Above the per-reservation maximum is the 409 `max_per_order`; far above it is bad input.
        quantity: z.int().check(z.minimum(1, 'must be at least 1'), z.maximum(100, 'must be at most 100')),
        waveTimeId: z.optional(bodyId('waveTimeId')),
      }),
    )
    .check(
      z.minLength(1, 'must hold at least one line'),
      z.maxLength(MAX_RESERVATION_LINES, `must hold at most ${MAX_RESERVATION_LINES} lines`),
    ),
  shippingMethodId: z.optional(bodyId('shippingMethodId')),
  promoCode: z.optional(
    z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(32, 'must be at most 32 characters')),
  ),
});

/**
 * `POST /my-account/reservations`'s body. It names what to hold and nothing
 * it costs: every price and amount comes from the server, so a client-sent one (`price`,
 * `unitPrice`, `amount`, `amounts`, `total`…) is an unknown field, a 400 (strict objects). Its ids are numbers or
 * their digits (`bodyId`): the portal's lists answer event and type ids as strings.
 */
export const NewReservationBody = z.lazy(() => z.strictObject(reservationFields()));
export type NewReservationBody = z.output<typeof NewReservationBody>;
