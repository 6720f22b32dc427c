/**
 * The fields the event's bodies (event-bodies.ts, contract/event-parts.ts) are built from: each
 * bound named, so a 400 says which one a value broke.
 */
import * as z from '../../schema.ts';
import { isValidTimeZone } from './event.ts';
import { money } from '../../domain/money.ts';
import { BookingFee, SellerFields, TaxRule } from '../../selling/domain/pricing-schemas.ts';
import {
  MAX_RESERVATION_MINUTES,
  MAX_TICKETS_PER_RESERVATION,
  MIN_RESERVATION_MINUTES,
} from '../../selling/domain/reservation.ts';
import { MAX_HELD_PER_NETWORK } from '../../selling/domain/hold-limits.ts';

/** A waiver's text (each version is an item of its own). */
export const MAX_WAIVER_TEXT = 50_000;

export const text = (max: number) => z.string().check(z.maxLength(max, `must be at most ${max} characters`));
export const name = (max = 200) =>
  z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));
/** The last millisecond of year 9999: instants are stored as four-digit-year ISO strings, which sort as text. */
const MAX_INSTANT = 253_402_300_799_999;
/** An instant with its offset (or `Z`), stored as UTC: from 1970 to 9999 (an offset cannot push it outside). */
export const instant = () =>
  z.pipe(
    z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time with an offset' }).check(
      z.maxLength(40),
      z.refine((value) => {
        const time = Date.parse(value);
        return time >= 0 && time <= MAX_INSTANT;
      }, 'must be between 1970 and 9999'),
    ),
    z.transform((value: string) => new Date(value).toISOString()),
  );
export const picture = () =>
  z.nullable(z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).check(z.maxLength(2000)));
export const timezone = () =>
  z.string().check(z.maxLength(64), z.refine(isValidTimeZone, 'must be an IANA time zone, e.g. Europe/London'));
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
export const currency = () =>
  z.string().check(
    z.maxLength(3, 'must be an ISO 4217 code, e.g. EUR'),
    z.refine((code) => CURRENCIES.has(code), 'must be an ISO 4217 code, e.g. EUR'),
  );
export const ordering = () => z.int().check(z.minimum(-1_000_000), z.maximum(1_000_000));
export const count = () =>
  z.int().check(z.minimum(0, 'must not be negative'), z.maximum(1_000_000, 'must be at most 1000000'));

export const optional = <T extends Record<string, z.ZodMiniType>>(shape: T) =>
  Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, z.optional(schema)])) as {
    [K in keyof T]: z.ZodMiniOptional<T[K]>;
  };

export const ticketTypeFields = (maxGrants: number) => ({
  name: name(),
  description: text(2000),
  ordering: ordering(),
  price: money(),
  /** null in a patch: the type is no longer taxed. */
  tax: z.nullable(TaxRule),
  total: count(),
  grants: z
    .array(z.int().check(z.positive('must be an event id')))
    .check(z.maxLength(maxGrants, `a type grants entry to at most ${maxGrants} other events`)),
});

/** The event version a body carries: a later one is 409 `stale_version`. */
export const version = z.lazy(() => z.optional(z.int().check(z.positive())));

/** A patch names at least one field besides `version`. */
export const someField = z.refine<Record<string, unknown>>(
  (patch) => Object.keys(patch).some((key) => key !== 'version'),
  'name at least one field to change',
);

/** How long a reservation of the event holds its tickets. */
export const reservationMinutes = () =>
  z
    .int()
    .check(
      z.minimum(MIN_RESERVATION_MINUTES, 'must be at least 1'),
      z.maximum(MAX_RESERVATION_MINUTES, 'must be at most 60'),
    );

/** The caps on what is held of an event at once (shared/selling/domain/reservation.ts `holdCaps`): a creation's or a patch's. */
export const holdCapFields = () => ({
  maxHeldPerCustomer: z
    .int()
    .check(
      z.minimum(1, 'must be at least 1'),
      z.maximum(MAX_TICKETS_PER_RESERVATION, `must be at most ${MAX_TICKETS_PER_RESERVATION} (one reservation's)`),
    ),
  maxHeldPerNetwork: z
    .int()
    .check(
      z.minimum(1, 'must be at least 1'),
      z.maximum(MAX_HELD_PER_NETWORK, `must be at most ${MAX_HELD_PER_NETWORK}`),
    ),
});

/**
 * What an event charges beside its types' prices: the buyer's booking fee, and the taxes on that fee and on shipping,
 * an event's settings (shared/README.md "Pricing"); null in a patch removes one.
 */
export const pricingFields = () => ({
  bookingFee: z.nullable(BookingFee),
  feeTax: z.nullable(TaxRule),
  shippingTax: z.nullable(TaxRule),
  /** Who sells, as the event's invoices name it (shared/README.md "Invoices"); null: the stage's seller. */
  seller: z.nullable(SellerFields),
});
