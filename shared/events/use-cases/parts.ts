import { now } from '../../clock.ts';
import type { HistoryAction } from '../data/event-admin-writes.ts';
import { commitPartChange, type PartWrite } from '../data/event-part-writes.ts';
import type { Event } from '../domain/event.ts';
import type { FieldChanges } from '../domain/event-admin.ts';
import { assertVersion } from './edit-events.ts';
import { eventFor, type Caller } from './event-reads.ts';

/**
 * What the routes of an event's parts (teams, waves, questions, waivers) share: the event
 * read in the caller's scope at the version named, and one transaction that moves the
 * event's version, writes the part and records who changed what in the event's history.
 */
export async function eventAtVersion(caller: Caller, eventId: number, version: number | undefined): Promise<Event> {
  const event = await eventFor(caller, eventId);
  assertVersion(event.version, version, eventId);
  return event;
}

/** The part's writes (none: a change of the event item itself, its questions) in one transaction. */
export async function commitPart(
  caller: Caller,
  before: Event,
  action: HistoryAction,
  changes: FieldChanges,
  writes: readonly PartWrite[],
  fields: Partial<Event> = {},
): Promise<Event> {
  const at = now().toISOString();
  const after: Event = { ...before, ...fields, version: (before.version ?? 1) + 1, updated: at, updatedBy: caller.id };
  const change = { before, after, changes, action, by: caller.id, at };
  await commitPartChange(change, writes);
  return after;
}
