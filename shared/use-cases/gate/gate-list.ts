import { now } from '../../clock.ts';
import { getEvent, grantsInto, MAX_TICKET_TYPES } from '../../data/events.ts';
import { readGateListPart, sortOf, ticketUpdates, type GateListPart } from '../../lists/gate.ts';
import { gateListEntry, type GateListEntry } from '../../domain/gate.ts';
import type { TicketRecord } from '../../domain/ticket.ts';
import { ValidationError } from '../../errors.ts';
import { assertEventsInScope, type EventScope } from '../event-scope.ts';

/** Entries per answer: a device takes 100,000 tickets offline in 100 requests. */
export const GATE_LIST_PAGE = 1_000;
/** Update-index items one changedSince answer reads at most (its shards' shares of it). */
const CHANGES_BUDGET = 4_000;
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

export interface GateListPage {
  count: number;
  data: GateListEntry[];
  next: string | null;
  watermark: string;
}

/**
 * `GET /gate-lists/{eventId}` (README "The gate offline"): every ticket that may enter the
 * event, walked by cursor (a full walk), or only those changed since a watermark
 * (`changedSince`: the update-time shards of the event and of the events whose access
 * packages grant it, deleted tickets included, shown `void`).
 */
export async function gateList(
  eventId: number,
  request: { changedSince?: string; cursor?: string; eventScope: EventScope },
): Promise<GateListPage> {
  assertEventsInScope(request.eventScope, [eventId]);
  const cursor = request.cursor === undefined ? undefined : decode(request.cursor, eventId);
  if (!cursor) await getEvent(eventId);
  const watermark = cursor?.w ?? new Date(now().getTime() - WATERMARK_LAG_MS).toISOString();
  const since = cursor ? cursor.s : request.changedSince;
  const page =
    since !== undefined
      ? await changesSince(eventId, since, cursor, watermark)
      : await fullWalk(eventId, cursor, watermark);
  return { ...page, watermark };
}

async function fullWalk(eventId: number, cursor: Cursor | undefined, watermark: string) {
  const records: TicketRecord[] = [];
  let part: GateListPart = cursor?.p === 'access' ? 'access' : 'own';
  let after = typeof cursor?.a === 'number' ? cursor.a : undefined;
  let next: Cursor | null = null;
  for (;;) {
    const read = await readGateListPart(eventId, part, after, GATE_LIST_PAGE - records.length);
    records.push(...read.records);
    if (read.lastId !== undefined) {
      next = { p: part, a: read.lastId, w: watermark };
      if (records.length >= GATE_LIST_PAGE) break;
      after = read.lastId;
      continue;
    }
    if (part === 'access') break;
    [part, after] = ['access', undefined];
    // The own part ended on a full answer: the access part starts the next one.
    if (records.length >= GATE_LIST_PAGE) {
      next = { p: 'access', w: watermark };
      break;
    }
  }
  return answer(eventId, records, next);
}

async function changesSince(eventId: number, since: string, cursor: Cursor | undefined, watermark: string) {
  const grants = (await grantsInto(eventId, MAX_GRANTS_READ)) ?? [];
  const events = [...new Set([eventId, ...grants.map((grant) => grant.eventId)])];
  const admits = (record: TicketRecord) => record.eventId === eventId || record.accessEvents.includes(eventId);
  const bounds = {
    ...(typeof cursor?.a === 'string' ? { after: cursor.a } : {}),
    need: GATE_LIST_PAGE,
    budget: CHANGES_BUDGET,
    accept: admits,
  };
  // The events' own update shards: only their changes.
  const read = await ticketUpdates({ from: since, events }, bounds);
  // The merged shards may hold more than an answer up to their cut: the rest is the next one's.
  const records = read.records.slice(0, GATE_LIST_PAGE);
  const resume = read.records.length > records.length ? sortOf('update', records.at(-1)!) : read.cut;
  const next: Cursor | null = resume === undefined ? null : { p: 'changes', a: resume, w: watermark, s: since };
  return answer(eventId, records, next);
}

function answer(eventId: number, records: TicketRecord[], next: Cursor | null) {
  const data = records.map((record) => gateListEntry(record, eventId));
  return { count: data.length, data, next: next ? encode({ ...next, e: eventId }) : null };
}
