import { describe, expect, it } from 'vitest';
import { DEFAULT_LISTING, type Event } from '#shared/events/domain/event';
import { applyEventPatch, checkDeletable, checkTypeDeletable, checkTypeTotal } from '#shared/events/domain/event-admin';
import { Conflict, ValidationError } from '#shared/errors';

const event: Event = {
  ...DEFAULT_LISTING,
  id: 7,
  title: 'Gala',
  timezone: 'Europe/London',
  startsAt: '2400-01-01T09:00:00.000Z',
  questions: [],
  capacity: 10,
  created: '2399-01-01T00:00:00.000Z',
  version: 3,
};
const fresh = { ticketTypes: 1, hasTickets: false };
const AT = '2399-06-01T00:00:00.000Z';
const reasonOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof Conflict ? error.reason : error instanceof ValidationError ? 'validation' : 'other';
  }
  return 'none';
};

describe('the rules of an event edit', () => {
  it('records only the fields that change, with their values before and after', () => {
    const { next, changes } = applyEventPatch(event, { title: 'Gala', venue: 'Hall' }, fresh, AT);
    expect(changes).toEqual({ venue: { from: '', to: 'Hall' } });
    expect(next).toMatchObject({ title: 'Gala', venue: 'Hall' });
  });

  it('publishes with a ticket type only, and stamps publishedDate', () => {
    expect(reasonOf(() => applyEventPatch(event, { published: true }, { ...fresh, ticketTypes: 0 }, AT))).toBe(
      'no_ticket_types',
    );
    expect(applyEventPatch(event, { published: true }, fresh, AT).next.publishedDate).toBe(AT);
    // Unpublishing needs no type.
    expect(
      reasonOf(() =>
        applyEventPatch({ ...event, published: true }, { published: false }, { ...fresh, ticketTypes: 0 }, AT),
      ),
    ).toBe('none');
  });

  it('keeps the start and currency of an event with tickets, and lets the rest (its publication too) change', () => {
    const sold = { ...fresh, hasTickets: true };
    expect(reasonOf(() => applyEventPatch(event, { startsAt: '2400-02-01T00:00:00.000Z' }, sold, AT))).toBe(
      'event_has_tickets',
    );
    expect(reasonOf(() => applyEventPatch(event, { published: true }, sold, AT))).toBe('none');
    expect(reasonOf(() => applyEventPatch({ ...event, published: true }, { published: false }, sold, AT))).toBe('none');
    expect(reasonOf(() => applyEventPatch(event, { currency: 'USD' }, sold, AT))).toBe('event_has_tickets');
    expect(reasonOf(() => applyEventPatch(event, { title: 'Gala II', startsAt: event.startsAt }, sold, AT))).toBe(
      'none',
    );
  });

  it('refuses a cutOff at or before onSaleDate, as patched over what is stored', () => {
    const onSale = { ...event, onSaleDate: '2399-05-01T00:00:00.000Z' };
    expect(reasonOf(() => applyEventPatch(onSale, { cutOff: '2399-05-01T00:00:00.000Z' }, fresh, AT))).toBe(
      'validation',
    );
    expect(reasonOf(() => applyEventPatch(onSale, { cutOff: '2399-05-02T00:00:00.000Z' }, fresh, AT))).toBe('none');
  });

  it('deletes an event only without tickets', () => {
    expect(reasonOf(() => checkDeletable(event, { hasTickets: true }))).toBe('event_has_tickets');
    expect(reasonOf(() => checkDeletable(event, { hasTickets: false }))).toBe('none');
  });
});

describe('the rules of a ticket type', () => {
  it('never takes total below sold', () => {
    expect(reasonOf(() => checkTypeTotal({ id: 1, sold: 5 }, 4))).toBe('total_below_sold');
    expect(reasonOf(() => checkTypeTotal({ id: 1, sold: 5 }, 5))).toBe('none');
  });

  it('deletes a type only with nothing sold and no ticket', () => {
    expect(reasonOf(() => checkTypeDeletable({ id: 1, sold: 1 }, false))).toBe('type_has_tickets');
    expect(reasonOf(() => checkTypeDeletable({ id: 1, sold: 0 }, true))).toBe('type_has_tickets');
    expect(reasonOf(() => checkTypeDeletable({ id: 1, sold: 0 }, false))).toBe('none');
  });
});
