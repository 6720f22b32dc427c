import { describe, expect, it } from 'vitest';
import { newTicketRecord } from '#shared/tickets/domain/new-ticket';
import {
  decodeSortCursor,
  encodeSortCursor,
  isEventAlone,
  isTypeAlone,
  matchesFilters,
  servingIndex,
  tooSparse,
} from '#shared/lists/older-ticket-list';
import { toListedTicket } from '#shared/tickets/domain/older-ticket-view';
import type { TicketRecord } from '#shared/tickets/domain/ticket';
import { ValidationError } from '#shared/errors';
import { OlderTicketListQuery } from '#shared/tickets/contract/ticket';
import { parseInstant } from '#shared/request-fields';

const record = (overrides: Partial<TicketRecord> = {}): TicketRecord => ({
  ...newTicketRecord(7, { id: 3, eventId: 2, grants: [] }, '2026-05-01T10:00:00.000Z'),
  partyMember: 'Ada',
  partyMemberLastName: 'Lovelace',
  emailAddress: 'ada@example.test',
  barcode: 'ABC123XYZ',
  ...overrides,
});

describe('parseInstant', () => {
  it('reads ISO dates, date-times with or without an offset, and unix seconds as ISO-8601 UTC', () => {
    expect(parseInstant('2026-05-01', 'from')).toBe('2026-05-01T00:00:00.000Z');
    expect(parseInstant('2026-05-01', 'to')).toBe('2026-05-01T23:59:59.999Z');
    expect(parseInstant('2026-05-01T12:30', 'from')).toBe('2026-05-01T12:30:00.000Z');
    expect(parseInstant('2026-05-01T12:30:15.5+02:00', 'from')).toBe('2026-05-01T10:30:15.500Z');
    expect(parseInstant('1767225600', 'from')).toBe('2026-01-01T00:00:00.000Z');
  });

  it('refuses impossible calendar dates, times and other text', () => {
    for (const bad of [
      '2026-02-30',
      '2026-13-01',
      '2026-05-01T24:00',
      '2026-05-01T10:61',
      'yesterday',
      '2026-5-1',
      '99999999999999',
    ]) {
      expect(parseInstant(bad, 'from'), bad).toBeUndefined();
    }
  });
});

describe('the list query', () => {
  it('refuses an inverted range on the field that ends it', () => {
    const result = OlderTicketListQuery.safeParse({
      eventId: '1',
      purchasedFrom: '2026-05-02',
      purchasedTo: '2026-05-01',
    });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.path.join('.'))).toEqual(['purchasedTo']);
  });

  it('accepts the same day as both ends of a range', () => {
    expect(
      OlderTicketListQuery.parse({ eventId: '1', updatedFrom: '2026-05-01', updatedTo: '2026-05-01' }),
    ).toMatchObject({
      updatedFrom: '2026-05-01T00:00:00.000Z',
      updatedTo: '2026-05-01T23:59:59.999Z',
    });
  });
});

describe('servingIndex', () => {
  it('picks the most selective filter: barcode, order, customer, updated range, event with purchases, type, event', () => {
    const all = {
      barcode: 'X',
      orderId: 1,
      customerId: 2,
      updatedFrom: 'a',
      eventId: 3,
      purchasedFrom: 'b',
      typeId: 4,
    };
    expect(servingIndex(all).kind).toBe('barcode');
    expect(servingIndex({ ...all, barcode: undefined }).kind).toBe('order');
    expect(servingIndex({ ...all, barcode: undefined, orderId: undefined }).kind).toBe('customer');
    expect(servingIndex({ updatedTo: 'z', eventId: 3, typeId: 4 }).kind).toBe('updates');
    expect(servingIndex({ eventId: 3, purchasedTo: 'b', typeId: 4 }).kind).toBe('purchases');
    expect(servingIndex({ eventId: 3, typeId: 4 }).kind).toBe('type');
    expect(servingIndex({ eventId: 3, search: 'ada' })).toEqual({
      kind: 'search',
      eventId: 3,
      typeId: undefined,
      key: { word: 'ada', exact: false },
    });
    // The search index, by the longest word (the most selective partition); a one-letter search cannot use it.
    expect(servingIndex({ typeId: 4, search: 'Ada  Lovelace' })).toMatchObject({
      kind: 'search',
      typeId: 4,
      key: { word: 'lovelace', exact: false },
    });
    expect(() => servingIndex({ eventId: 3, search: 'a' })).toThrow(ValidationError);
  });

  it('serves search alone (across events) and refuses a purchase range without an event, naming it', () => {
    expect(servingIndex({ search: 'ada' })).toEqual({
      kind: 'search',
      eventId: undefined,
      typeId: undefined,
      key: { word: 'ada', exact: false },
    });
    expect(servingIndex({ search: 'Ada.Okafor.12@example' })).toMatchObject({
      key: { word: 'ada.okafor.12', exact: true },
    });
    expect(servingIndex({ search: 'ada', purchasedFrom: '2026-01-01T00:00:00.000Z' })).toMatchObject({
      kind: 'search',
    });
    const refusal = (() => {
      try {
        servingIndex({ purchasedTo: '2026-01-01T00:00:00.000Z' });
      } catch (error) {
        return error as ValidationError;
      }
    })();
    expect(refusal).toBeInstanceOf(ValidationError);
    expect(refusal?.errors.map((problem) => problem.path)).toEqual(['query.purchasedFrom']);
  });

  it('knows eventId alone from eventId with anything else', () => {
    expect(isEventAlone({ eventId: 1 })).toBe(true);
    expect(isEventAlone({ eventId: 1, search: 'a' })).toBe(false);
    expect(isEventAlone({ typeId: 1 })).toBe(false);
    expect(isTypeAlone({ typeId: 1 })).toBe(true);
    expect(isTypeAlone({ typeId: 1, eventId: 2 })).toBe(true);
    expect(isTypeAlone({ typeId: 1, search: 'a' })).toBe(false);
    expect(isTypeAlone({ eventId: 2 })).toBe(false);
  });
});

describe('matchesFilters', () => {
  const byEvent = { kind: 'event', eventId: 2 } as const;
  it('searches words of the first and last name, the email address, the barcode and the bib by prefix, without case or accents', () => {
    for (const search of [
      'ada',
      'LOVE',
      'ada@EXAMPLE',
      'ada@example.test',
      'abc12',
      'b-77',
      'Ada Love',
      'lovelace ada',
      'ÁDA',
    ]) {
      expect(matchesFilters(record({ bibNumber: 'B-77' }), { search }, byEvent), search).toBe(true);
    }
    expect(matchesFilters(record({ partyMemberLastName: 'Brontë' }), { search: 'bronte' }, byEvent)).toBe(true);
    // Prefixes of words, not any substring: the middle of a word or an address's domain alone finds nothing.
    for (const search of ['grace', 'velace', '@example', 'c123x', 'ada grace'])
      expect(matchesFilters(record(), { search }, byEvent), search).toBe(false);
    expect(matchesFilters(record(), { search: '7' }, byEvent)).toBe(true);
  });

  it('keeps deleted tickets only in the sync, and applies ranges inclusively', () => {
    expect(matchesFilters(record({ deleted: 1 }), {}, byEvent)).toBe(false);
    expect(matchesFilters(record({ deleted: 1 }), {}, { kind: 'updates' })).toBe(true);
    const at = '2026-05-01T10:00:00.000Z';
    expect(matchesFilters(record(), { purchasedFrom: at, purchasedTo: at, updatedTo: at }, byEvent)).toBe(true);
    expect(matchesFilters(record(), { purchasedFrom: '2026-05-01T10:00:00.001Z' }, byEvent)).toBe(false);
    expect(matchesFilters(record(), { typeId: 4 }, byEvent)).toBe(false);
  });

  it('round-trips a serving sort key as _cursor and refuses anything else with 400', () => {
    const sort = '2026-05-01T10:00:00.000Z#0000000009';
    expect(decodeSortCursor(encodeSortCursor(sort))).toBe(sort);
    for (const forged of [
      'bm9wZQ',
      Buffer.from('s:2026#00000000x9').toString('base64url'),
      Buffer.from('s:a b#0000000009').toString('base64url'),
      Buffer.from(`s:${'9'.repeat(81)}`).toString('base64url'),
    ]) {
      expect(() => decodeSortCursor(forged), forged).toThrow(ValidationError);
    }
  });
});

describe('tooSparse', () => {
  it('names the field that thinned the read and the narrower query: the per-event sync for a sync across events', () => {
    const problem = (filters: Parameters<typeof tooSparse>[0]) => {
      const error = tooSparse(filters);
      return { path: error.errors[0]!.path, perEvent: error.message.includes('sync each of your events with eventId') };
    };
    expect(problem({ updatedFrom: '2026-05-01T00:00:00.000Z' })).toEqual({ path: 'query.updatedFrom', perEvent: true });
    expect(problem({ updatedTo: '2026-05-01T00:00:00.000Z' })).toEqual({ path: 'query.updatedTo', perEvent: true });
    expect(problem({ updatedFrom: '2026-05-01T00:00:00.000Z', search: 'ada' })).toEqual({
      path: 'query.search',
      perEvent: false,
    });
    expect(problem({ updatedFrom: '2026-05-01T00:00:00.000Z', eventId: 2 })).toEqual({
      path: 'query',
      perEvent: false,
    });
    expect(problem({ customerId: 4, eventId: 2 })).toEqual({ path: 'query', perEvent: false });
  });
});

describe('toListedTicket', () => {
  it('adds only the expansions asked for; costs total price, tax and gratuity to the cent', () => {
    const none = { affiliates: new Map(), waves: new Map(), users: new Map(), waivers: new Map() };
    const listed = toListedTicket(record({ price: 10.1, taxAmount: 0.2, gratuityAmount: 1 }), ['costs', 'user'], none);
    expect(listed.costs).toEqual({ price: 10.1, taxAmount: 0.2, gratuityAmount: 1, paidUponCheckout: 0, total: 11.3 });
    expect(listed.user).toBeNull();
    expect(listed).not.toHaveProperty('promoter');
    expect(listed.purchasedDate).toBe('2026-05-01T10:00:00.000Z');
  });
});
