import { now } from '../../clock.ts';
import { getEvent, grantsInto } from '../../events/data/events.ts';
import { MAX_TICKET_TYPES } from '../../events/domain/event.ts';
import { readGateListPart, sortOf, ticketUpdates, type GateListPart } from '../../lists/gate.ts';
import { TICKET_UPDATE_SHARDS } from '../../tickets/data/ticket-records.ts';
import { GATE_LIST_PAGE, gateListEntry, type GateListPage } from '../domain/gate.ts';
import type { TicketRecord } from '../../tickets/domain/ticket.ts';
import { ValidationError } from '../../errors.ts';
import { assertEventsInScope, type EventScope } from '../../identity/use-cases/event-scope.ts';

/**
 * Update-index items one changedSince answer reads at most, however many shards and granting
 * events: one budget shared by every shard it reads (each reads at most its share), the
 * rest of the walk by cursor. Beside it an answer reads the event's access grants (at most
 * MAX_GRANTS_READ + 1) and, while the backfill's marks remain, one BatchGetItem of them.
 */
export const CHANGES_BUDGET = 4_000;
/**
 * Events one changedSince answer reads (the event and those whose access packages grant it,
 * in id order, 8 update shards each): 25 events are 200 shards of at least 20 items each; an
 * event granted by more is walked group by group, each to its end before the next.
 */
const EVENTS_PER_ANSWER = 25;
/**
 * How far a watermark trails the walk's start: a change's `updated` is stamped before its
 * transaction commits and reaches the update-time index, so a change stamped just before
 * the walk may become visible only after it. The next `changedSince` reads it again (a
 * device replaces entries by barcode, so reading one twice costs nothing).
 */
const WATERMARK_LAG_MS = 60_000;
/** An event granted into by more ticket types than an event may hold cannot be; bound the read anyway. */
const MAX_GRANTS_READ = 10 * MAX_TICKET_TYPES;

interface Cursor {
  /** own, access: the full walk's parts; changes: a changedSince walk. */
  p: GateListPart | 'changes';
  /** The last ticket id (parts) or update sort key (changes) answered. */
  a?: number | string;
  /** The walk's watermark (every answer of one walk carries its first one's). */
  w: string;
  /** changes: the walk's changedSince. */
  s?: string;
  /** The event walked: a cursor of another event's list is refused. */
  e?: number;
  /** changes: the first event of the group of events being walked (EVENTS_PER_ANSWER). */
  g?: number;
}

const encode = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');

function decode(cursor: string, eventId: number): Cursor {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Cursor;
    if (value.e === eventId && ['own', 'access', 'changes'].includes(value.p) && typeof value.w === 'string')
      return value;
  } catch {}
  throw new ValidationError(
    '_cursor is not a cursor this list answered: pass `next` from a previous answer unchanged.',
    [{ path: 'query._cursor', message: 'unknown cursor' }],
  );
}

/** The `next` a full walk answers after ticket `after` of the event's own tickets (the scale bench's deep answer). */
export const ownPartCursor = (eventId: number, after: number, watermark: string): string =>
  encode({ p: 'own', a: after, w: watermark, e: eventId });

/**
 * `GET /gate-lists/{eventId}` (README "The gate offline"): every ticket that may enter the
 * event, walked by cursor (a full walk), or only those changed since a watermark
 * (`changedSince`: the update-time shards of the event and of the events whose access
 * packages grant it, deleted tickets included, shown `void`).
 */
export async function gateList(
  eventId: number,
  request: {
    changedSince?: string;
    cursor?: string;
    limit?: number;
    eventScope: EventScope;
    /** changedSince's read budget (CHANGES_BUDGET): smaller only in tests that show it binding on a small table. */
    budget?: number;
  },
): Promise<GateListPage> {
  assertEventsInScope(request.eventScope, [eventId]);
  const cursor = request.cursor === undefined ? undefined : decode(request.cursor, eventId);
  if (!cursor) await getEvent(eventId);
  const watermark = cursor?.w ?? new Date(now().getTime() - WATERMARK_LAG_MS).toISOString();
  const since = cursor ? cursor.s : request.changedSince;
  const walk = {
    eventId,
    cursor,
    watermark,
    limit: request.limit ?? GATE_LIST_PAGE,
    budget: request.budget ?? CHANGES_BUDGET,
  };
  const page = since !== undefined ? await changesSince(walk, since) : await fullWalk(walk);
  return { ...page, watermark };
}

interface Walk {
  eventId: number;
  cursor: Cursor | undefined;
  watermark: string;
  limit: number;
  budget: number;
}

async function fullWalk({ eventId, cursor, watermark, limit }: Walk) {
  const records: TicketRecord[] = [];
  let part: GateListPart = cursor?.p === 'access' ? 'access' : 'own';
  let after = typeof cursor?.a === 'number' ? cursor.a : undefined;
  let next: Cursor | null = null;
  for (;;) {
    const read = await readGateListPart(eventId, part, after, limit - records.length);
    records.push(...read.records);
    if (read.lastId !== undefined) {
      next = { p: part, a: read.lastId, w: watermark };
      if (records.length >= limit) break;
      after = read.lastId;
      continue;
    }
    if (part === 'access') break;
    [part, after] = ['access', undefined];
    // The own part ended on a full answer: the access part starts the next one.
    if (records.length >= limit) {
      next = { p: 'access', w: watermark };
      break;
    }
  }
  return answer(eventId, records, next);
}

async function changesSince({ eventId, cursor, watermark, limit, budget }: Walk, since: string) {
  const grants = (await grantsInto(eventId, MAX_GRANTS_READ)) ?? [];
  const events = [...new Set([eventId, ...grants.map((grant) => grant.eventId)])].sort((a, b) => a - b);
  const admits = (record: TicketRecord) => record.eventId === eventId || record.accessEvents.includes(eventId);
  const after = typeof cursor?.a === 'string' ? { after: cursor.a } : {};
  // The events' own shards, read 25 events (200 shards) at a time, each group to its end before the next.
  const first = typeof cursor?.g === 'number' ? cursor.g : events[0]!;
  const group = events.filter((id) => id >= first).slice(0, EVENTS_PER_ANSWER);
  const following = events.find((id) => id > group.at(-1)!);
  const bounds = shared({ ...after, shards: group.length * TICKET_UPDATE_SHARDS, limit, budget }, admits);
  const read = await ticketUpdates({ from: since, events: group }, bounds);
  return page(eventId, read, limit, (resume) =>
    resume !== undefined
      ? { p: 'changes', a: resume, w: watermark, s: since, g: group[0]! }
      : following === undefined
        ? undefined
        : { p: 'changes', w: watermark, s: since, g: following },
  );
}

/**
 * The bounds of one answer's merged read of `shards` shards: each shard reads at most its
 * share of CHANGES_BUDGET (mergedRead gives each the larger of `need` and that share), so
 * the answer reads at most the budget; the merge's prefix up to where a shard stopped is
 * complete, and the cursor resumes there.
 */
const shared = (
  { after, shards, limit, budget }: { after?: string; shards: number; limit: number; budget: number },
  accept: (record: TicketRecord) => boolean,
) => ({
  ...(after === undefined ? {} : { after }),
  need: Math.max(1, Math.min(limit, Math.floor(budget / shards))),
  budget,
  accept,
});

function page(
  eventId: number,
  read: Awaited<ReturnType<typeof ticketUpdates>>,
  limit: number,
  next: (resume: string | undefined) => Cursor | undefined,
) {
  // The merged shards may hold more than an answer up to their cut: the rest is the next one's.
  const records = read.records.slice(0, limit);
  const resume = read.records.length > records.length ? sortOf('update', records.at(-1)!) : read.cut;
  return answer(eventId, records, next(resume) ?? null);
}

function answer(eventId: number, records: TicketRecord[], next: Cursor | null) {
  const data = records.map((record) => gateListEntry(record, eventId));
  return { count: data.length, data, next: next ? encode({ ...next, e: eventId }) : null };
}
