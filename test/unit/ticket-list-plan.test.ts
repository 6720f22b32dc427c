import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/errors';
import { PROCESS_STATE, PROCESS_STATES } from '#shared/tickets/domain/ticket';
import {
  candidates,
  checkPaging,
  positionLists,
  countIsExact,
  decodeCursor,
  encodeCursor,
  MAX_LIST_SOURCES,
  matchesList,
  sourcesOf,
  type ListKeys,
} from '#shared/lists/ticket-list-plan';
import {
  hasSpans,
  positionCounters,
  SPAN_BLOCKS,
  spanOf,
  spanState,
  spanStates,
  teamList,
} from '#shared/lists/list-position-plan';

const k: ListKeys<string> = {
  eventTickets: (e) => `E${e}`,
  teamTickets: (e, t) => `T${e}/${t}`,
  typeTickets: (t) => `Y${t}`,
  stateTickets: (e, s) => `S${e}/${s}`,
  accessTickets: (e) => `A${e}`,
  allTickets: 'ALL',
};

describe('GET /tickets list plan', () => {
  it('round-trips a cursor and refuses anything else with 400', () => {
    expect(decodeCursor(encodeCursor(123_456))).toBe(123_456);
    expect(() => decodeCursor('bm9wZQ')).toThrow(ValidationError);
    expect(() => decodeCursor(Buffer.from('t:-1').toString('base64url'))).toThrow(ValidationError);
  });

  it('takes any _offset, and refuses an offset with a cursor', () => {
    expect(() => checkPaging({ offset: 99_000 })).not.toThrow();
    expect(() => checkPaging({ offset: 1, cursor: encodeCursor(5) })).toThrow(ValidationError);
  });

  it('keeps positions exactly for the combinations it counts exactly', () => {
    expect(positionLists({ events: [1, 2], accessEvents: [] })).toEqual([
      { eventId: 1, list: 'event' },
      { eventId: 2, list: 'event' },
    ]);
    // Each team keeps blocks of its own (an event can have thousands); a type is a part of its event's blocks.
    expect(positionLists({ events: [1], accessEvents: [], teams: [0, 7, 7], excludeProcessStates: [4] })).toEqual([
      { eventId: 1, list: 'team#0' },
      { eventId: 1, list: 'team#7' },
    ]);
    expect(positionLists({ events: [1, 2], accessEvents: [], ticketTypes: [9] })).toEqual([
      { eventId: 1, list: 'event', parts: ['y9'] },
      { eventId: 2, list: 'event', parts: ['y9'] },
    ]);
    expect(positionLists({ events: [], accessEvents: [3] })).toEqual([
      { eventId: 3, list: 'event' },
      { eventId: 3, list: 'access' },
    ]);
    // The granted entries' blocks have the type parts too: one access event with types is positioned.
    expect(positionLists({ events: [], accessEvents: [3], ticketTypes: [9, 8] })).toEqual([
      { eventId: 3, list: 'event', parts: ['y9', 'y8'] },
      { eventId: 3, list: 'access', parts: ['y9', 'y8'] },
    ]);
    // Granted tickets by team: the granting types' parts of their own events' team blocks, once the grants are known.
    expect(positionLists({ events: [], accessEvents: [3], teams: [1] })).toBeUndefined();
    const grants = [
      { into: 3, eventId: 5, typeId: 51 },
      { into: 3, eventId: 5, typeId: 52 },
      { into: 3, eventId: 6, typeId: 61 },
    ];
    expect(positionLists({ events: [], accessEvents: [3], teams: [1, 0] }, grants)).toEqual([
      { eventId: 3, list: 'team#1' },
      { eventId: 3, list: 'team#0' },
      { eventId: 5, list: 'team#1', parts: ['y51', 'y52'] },
      { eventId: 5, list: 'team#0', parts: ['y51', 'y52'] },
      { eventId: 6, list: 'team#1', parts: ['y61'] },
      { eventId: 6, list: 'team#0', parts: ['y61'] },
    ]);
    // With types, only the granting types among them (an event none of them grants from is left out).
    expect(positionLists({ events: [], accessEvents: [3], teams: [1], ticketTypes: [52, 30] }, grants)).toEqual([
      { eventId: 3, list: 'team#1', parts: ['y52', 'y30'] },
      { eventId: 5, list: 'team#1', parts: ['y52'] },
    ]);
    // An access event granted from more events than one page may Query: not positioned.
    const wide = Array.from({ length: MAX_LIST_SOURCES }, (_, n) => ({ into: 3, eventId: 100 + n, typeId: 1000 + n }));
    expect(positionLists({ events: [], accessEvents: [3], teams: [1] }, wide)).toBeUndefined();
    // A team × type pair is a part of the team's blocks.
    expect(positionLists({ events: [1, 2], accessEvents: [], teams: [1], ticketTypes: [9, 8] })).toEqual([
      { eventId: 1, list: 'team#1', parts: ['y9', 'y8'] },
      { eventId: 2, list: 'team#1', parts: ['y9', 'y8'] },
    ]);
    // More pairs than are counted: no exact total, so no positions either.
    const many = Array.from({ length: 11 }, (_, n) => n + 1);
    expect(positionLists({ events: [1], accessEvents: [], teams: many, ticketTypes: many })).toBeUndefined();
    expect(positionLists({ events: [1], accessEvents: [2, 3] })).toBeUndefined();
    // Beside other events, the granting types' parts of their own events' blocks; an own event's tickets are listed whole.
    const into = [
      { into: 2, eventId: 1, typeId: 11 },
      { into: 2, eventId: 5, typeId: 51 },
      { into: 3, eventId: 5, typeId: 51 },
      { into: 3, eventId: 5, typeId: 52 },
    ];
    expect(positionLists({ events: [1], accessEvents: [2, 3] }, into)).toEqual([
      { eventId: 1, list: 'event' },
      { eventId: 2, list: 'event' },
      { eventId: 3, list: 'event' },
      { eventId: 5, list: 'event', parts: ['y51', 'y52'] },
    ]);
    expect(
      positionLists({ events: [1], accessEvents: [2], teams: [7], ticketTypes: [52, 11] }, into.slice(0, 2)),
    ).toEqual([
      { eventId: 1, list: 'team#7', parts: ['y52', 'y11'] },
      { eventId: 2, list: 'team#7', parts: ['y52', 'y11'] },
    ]);
  });

  it('counts a checked-in ticket as an active one in spans, so only filters keeping both or neither use them', () => {
    const { pending, active, checkedIn, cancelled } = PROCESS_STATE;
    expect(PROCESS_STATES.map(spanState)).toEqual([pending, active, active, cancelled]);
    // A check-in leaves the span counters as they were.
    expect(positionCounters(spanState(checkedIn), 7)).toEqual(positionCounters(spanState(active), 7));
    expect(spanStates(PROCESS_STATES)).toEqual([pending, active, cancelled]);
    expect(spanStates([pending, active, checkedIn])).toEqual([pending, active]);
    expect(spanStates([pending, cancelled])).toEqual([pending, cancelled]);
    expect(spanStates([active])).toBeUndefined();
    expect(spanStates([pending, checkedIn, cancelled])).toBeUndefined();
    expect(hasSpans(teamList(0))).toBe(true);
    expect(hasSpans('event')).toBe(false);
    expect(hasSpans('access')).toBe(false);
    expect(spanOf(SPAN_BLOCKS - 1)).toBe(0);
    expect(spanOf(SPAN_BLOCKS)).toBe(1);
  });

  it('serves each dimension from its partitions, plus the granted-event entries', () => {
    const filter = { events: [1], accessEvents: [2], teams: [0, 7], excludeProcessStates: [4] };
    expect(sourcesOf(filter, 'team', k).map((s) => s.partition)).toEqual(['T1/0', 'T1/7', 'T2/0', 'T2/7', 'A2']);
    expect(sourcesOf(filter, 'state', k).map((s) => s.partition)).toEqual([
      'S1/0',
      'S1/1',
      'S1/2',
      'S2/0',
      'S2/1',
      'S2/2',
      'A2',
    ]);
    expect(sourcesOf(filter, 'event', k).find((s) => s.partition === 'A2')).toMatchObject({ anyEvent: true });
    expect(candidates(filter)).toEqual(['event', 'team', 'state']);
    // Too many partitions: the teams filter is applied to a broader read instead.
    const wide = { events: Array.from({ length: 20 }, (_, i) => i + 1), accessEvents: [], teams: [1, 2, 3, 4] };
    expect(20 * 4).toBeGreaterThan(MAX_LIST_SOURCES);
    expect(candidates(wide)).toEqual(['event']);
  });

  it('applies every filter, and the event only to partitions that are not granted entries', () => {
    const filter = { events: [1], accessEvents: [], teams: [3], ticketTypes: [9], excludeProcessStates: [4] };
    const own = { partition: 'E1', anyEvent: false };
    const ticket = { eventId: 1, typeId: 9, teamKey: 3, processState: 1 };
    expect(matchesList(ticket, filter, own, new Set([1]))).toBe(true);
    expect(matchesList({ ...ticket, processState: 4 }, filter, own, new Set([1]))).toBe(false);
    expect(matchesList({ ...ticket, teamKey: 0 }, filter, own, new Set([1]))).toBe(false);
    expect(matchesList({ ...ticket, eventId: 5 }, filter, own, new Set([1]))).toBe(false);
    expect(matchesList({ ...ticket, eventId: 5 }, filter, { ...own, anyEvent: true }, new Set([1]))).toBe(true);
  });

  it('says which combinations the kept counts answer exactly', () => {
    expect(countIsExact({ events: [1, 2], accessEvents: [] })).toBe(true);
    expect(countIsExact({ events: [1], accessEvents: [], teams: [1, 2], excludeProcessStates: [4] })).toBe(true);
    expect(countIsExact({ events: [], accessEvents: [3] })).toBe(true);
    expect(countIsExact({ events: [3], accessEvents: [3] })).toBe(true);
    // Team × type pairs are counted jointly, up to MAX_COUNTED_PAIRS of them.
    expect(countIsExact({ events: [1], accessEvents: [], teams: [1], ticketTypes: [2] })).toBe(true);
    expect(countIsExact({ events: [1], accessEvents: [], teams: [1, 2], ticketTypes: [2, 3, 4, 5, 6] })).toBe(true);
    expect(countIsExact({ events: [1], accessEvents: [], teams: [1, 2, 3], ticketTypes: [2, 3, 4, 5] })).toBe(true);
    const many = (n: number, from: number) => Array.from({ length: n }, (_, i) => from + i);
    expect(countIsExact({ events: [1], accessEvents: [], teams: many(10, 1), ticketTypes: many(10, 100) })).toBe(true);
    expect(countIsExact({ events: [1], accessEvents: [], teams: many(11, 1), ticketTypes: many(10, 100) })).toBe(false);
    // Granted tickets are counted by team and type too: one access event alone is exact with them.
    expect(countIsExact({ events: [], accessEvents: [3], teams: [1] })).toBe(true);
    expect(countIsExact({ events: [], accessEvents: [3], teams: [1], ticketTypes: [2] })).toBe(true);
    // Beside other events a granted ticket could be counted twice: exact per granting type, once the grants are known.
    expect(countIsExact({ events: [1], accessEvents: [3] })).toBe(false);
    expect(countIsExact({ events: [1], accessEvents: [3] }, [])).toBe(true);
    const granting = many(50, 1).map((typeId) => ({ into: 3, eventId: 9, typeId }));
    expect(countIsExact({ events: [1], accessEvents: [3], teams: [1, 2] }, granting)).toBe(true);
    expect(countIsExact({ events: [1], accessEvents: [3], teams: [1, 2, 3] }, granting)).toBe(false);
    // Each granting type counts once, whichever access events it grants entry to; an own event's are its own.
    const twice = [...granting, ...granting.map((grant) => ({ ...grant, into: 4 }))];
    expect(countIsExact({ events: [], accessEvents: [3, 4], teams: [1, 2] }, twice)).toBe(true);
    expect(countIsExact({ events: [9], accessEvents: [3, 4], teams: [1, 2, 3, 4] }, twice)).toBe(true);
  });
});
