import { Conflict, ValidationError } from '../../errors.ts';
import type { Event, EventListing, TicketType } from './event.ts';
import { amountProblem } from '../../domain/money.ts';
import { bookingFeeProblems } from '../../selling/domain/pricing-schemas.ts';

/**
 * The organiser's rules for an event's edits (the events routes, README "Where we differ
 * from the spec"; the OpenAPI document's `events` tag): what a patch may change, when an event may be published, deleted or its start
 * moved, when a ticket type's total or the type itself may go. Pure: the use cases
 * in shared/events/use-cases/ load, ask these, and commit once.
 */

/** What an event's patch may change: its listing fields, title, start and time zone, and `published`. */
export type EventPatch = Partial<
  Pick<
    Event,
    | 'title'
    | 'timezone'
    | 'startsAt'
    | 'currency'
    | 'reservationMinutes'
    | 'maxHeldPerCustomer'
    | 'maxHeldPerNetwork'
    | 'bookingFee'
    | 'feeTax'
    | 'shippingTax'
    | 'seller'
  > &
    Omit<EventListing, 'publishedDate'>
>;

/** A field's value before and after a change (the event's history). */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/** What an event already holds that limits its edits. */
export interface EventHolds {
  ticketTypes: number;
  /** Whether any ticket was ever issued for it (deleted ones included). */
  hasTickets: boolean;
}

/** The patched event, what changed (nothing: an empty record), or the refusal. */
export function applyEventPatch(event: Event, patch: EventPatch, holds: EventHolds, at: string) {
  const changes: FieldChanges = {};
  for (const field of Object.keys(patch) as (keyof EventPatch)[]) {
    const value = patch[field];
    // By value: a fee or a tax is an object, the same when its fields are.
    if (value === undefined || JSON.stringify(value) === JSON.stringify(event[field] ?? null)) continue;
    changes[field] = { from: event[field] ?? null, to: value };
  }
  const changed: Partial<Event> = Object.fromEntries(Object.keys(changes).map((field) => [field, changes[field]!.to]));
  const next: Event = { ...event, ...changed };
  checkSaleDates(next);
  if (changes.published && next.published && holds.ticketTypes === 0)
    throw new Conflict('An event is published with at least one ticket type: add one first.', 'no_ticket_types');
  // A start and a currency stay once the event has tickets: its customers' links to it
  // are stored under `<startsAt>#<id>` sort keys that no edit rewrites (keys.ts
  // `customerEventIndexes`, `publishedEventSort`), and its tickets were sold in its currency.
  // `published` changes both ways at any time: the portal's walk judges a link by whether its
  // event is on the published index now (shared/lists/README.md "Portal").
  const kept = (['startsAt', 'currency'] as const).find((field) => changes[field]);
  if (holds.hasTickets && kept)
    throw new Conflict(
      `Event ${event.id} has tickets: its ${kept === 'startsAt' ? 'start' : 'currency'} no longer changes.`,
      'event_has_tickets',
    );
  if (changes.published && next.published) next.publishedDate = at;
  return { next, changes };
}

/** `cutOff` (sales close) after `onSaleDate` (sales open), when both are set: a 400 naming `cutOff`. */
export function checkSaleDates(event: Pick<Event, 'cutOff' | 'onSaleDate'>): void {
  if (event.cutOff && event.onSaleDate && event.cutOff <= event.onSaleDate)
    throw new ValidationError('cutOff must be after onSaleDate.', [
      { path: 'body.cutOff', message: 'must be after onSaleDate' },
    ]);
}

/**
 * Ticket type prices have no more decimals than the event's currency takes (shared/money.ts: JPY 1000, not 1000.5;
 * KWD 1.25, not 1.255): a 400 naming each price that does not fit.
 */
export function checkPrices(prices: readonly { path: string; price: number }[], currency: string): void {
  const problems = prices.flatMap(({ path, price }) => {
    const message = amountProblem(price, currency);
    return message ? [{ path, message }] : [];
  });
  if (problems.length) throw new ValidationError(`A price does not fit the event's currency, ${currency}.`, problems);
}

/**
 * A booking fee's `perTicket` in the event's currency, as a price (JPY 1.5 is a 400 naming it); checked when the fee or
 * the currency changes, so a currency change the fee does not fit is refused too.
 */
export function checkBookingFee(fee: Event['bookingFee'], currency: string): void {
  const problems = fee ? bookingFeeProblems(fee, currency, 'body.bookingFee') : [];
  if (problems.length)
    throw new ValidationError(`The booking fee does not fit the event's currency, ${currency}.`, problems);
}

/**
 * An event's currency changes only to one its types' prices fit (JPY for a type of 12.50 does not): 409
 * `prices_not_in_currency` with those types' ids, as the prices are the types' state, not the request's.
 */
export function checkCurrencyChange(types: readonly Pick<TicketType, 'id' | 'price'>[], currency: string): void {
  const typeIds = types.filter((type) => amountProblem(type.price, currency)).map((type) => type.id);
  if (typeIds.length)
    throw new Conflict(
      `The prices of ticket types ${typeIds.join(', ')} have more decimals than ${currency} takes: change them first.`,
      'prices_not_in_currency',
      { typeIds, currency },
    );
}

/** A deletion is for an event that never had tickets (409 otherwise: unpublish it instead). */
export function checkDeletable(event: Pick<Event, 'id'>, holds: Pick<EventHolds, 'hasTickets'>): void {
  if (holds.hasTickets) throw new Conflict(`Event ${event.id} has tickets: unpublish it instead.`, 'event_has_tickets');
}

/** A ticket type's capacity never goes below what it has sold (409: never a silent oversell). */
export function checkTypeTotal(type: { id: number; sold: number }, total: number): void {
  if (total < type.sold)
    throw new Conflict(
      `Ticket type ${type.id} has sold ${type.sold}: its total cannot be ${total}.`,
      'total_below_sold',
      { sold: type.sold },
    );
}

/** A ticket type is deleted only when none of its tickets exists. */
export function checkTypeDeletable(type: { id: number; sold: number }, hasTickets: boolean): void {
  if (type.sold > 0 || hasTickets)
    throw new Conflict(`Ticket type ${type.id} has tickets: it stays.`, 'type_has_tickets', { sold: type.sold });
}
