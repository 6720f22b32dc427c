import type { NewWaiverBody, WaiverPatchBody } from '../domain/event-bodies.ts';
import { now } from '../../clock.ts';
import { allocateIds } from '../../data/counters.ts';
import { listTicketTypes } from '../data/events.ts';
import { eventWaivers, waiverItems } from '../data/waivers.ts';
import { keys } from '../../data/keys.ts';
import { MAX_WAIVERS } from '../domain/event.ts';
import type { FieldChanges } from '../domain/event-admin.ts';
import { versionHash, type Waiver } from '../domain/waivers.ts';

import { Conflict, NotFound, ValidationError } from '../../errors.ts';
import type { Caller } from './event-reads.ts';
import { commitPart, eventAtVersion } from './parts.ts';
import { assertUnused } from '../../lists/tickets.ts';

/**
 * The waiver routes, one waiver at a time: a waiver added (with its first version), its
 * title, kind or text changed (a new text publishes a new version: tickets that signed an
 * earlier one stay signed), or removed. Tickets and the gate read the waiver item, so a
 * rename shows at once. A waiver is removed only while no live ticket must sign it (an
 * event-wide one: the event's tickets; a type's: that type's), which covers every ticket
 * that signed it; 409 `in_use` with their count.
 */

async function waiverOf(eventId: number, waiverId: number): Promise<Waiver> {
  const waiver = (await eventWaivers(eventId)).find((candidate) => candidate.id === waiverId);
  if (!waiver) throw new NotFound('Waiver', waiverId);
  return waiver;
}

export async function createWaiverFor(caller: Caller, eventId: number, body: NewWaiverBody): Promise<Waiver> {
  const event = await eventAtVersion(caller, eventId, body.version);
  const [waivers, types] = await Promise.all([eventWaivers(eventId), listTicketTypes(eventId)]);
  if (waivers.length >= MAX_WAIVERS)
    throw new Conflict(`An event holds at most ${MAX_WAIVERS} waivers.`, 'too_many_waivers');
  const ticketTypeId = body.ticketTypeId ?? null;
  if (ticketTypeId !== null && !types.some((type) => type.id === ticketTypeId))
    throw new ValidationError(`Ticket type ${ticketTypeId} is not a type of event ${eventId}.`, [
      { path: 'body.ticketTypeId', message: `ticket type ${ticketTypeId} is not a type of this event` },
    ]);
  const stamp = now().toISOString();
  const waiver: Waiver = {
    id: await allocateIds('WAIVER'),
    eventId,
    ticketTypeId,
    title: body.title,
    kind: body.kind ?? 'standard',
    versionHash: versionHash(body.text),
    versionPublished: stamp,
    created: stamp,
  };
  const items = waiverItems(waiver, body.text);
  const { versionHash: hash, title, kind } = waiver;
  await commitPart(
    caller,
    event,
    'waiver_created',
    { [`waivers.${waiver.id}`]: { from: null, to: { title, kind, ticketTypeId, versionHash: hash } } },
    [
      { put: items.waiver, existing: false },
      { put: items.version, existing: false },
    ],
  );
  return waiver;
}

export async function updateWaiverFor(
  caller: Caller,
  eventId: number,
  waiverId: number,
  body: WaiverPatchBody,
): Promise<Waiver> {
  const event = await eventAtVersion(caller, eventId, body.version);
  const waiver = await waiverOf(eventId, waiverId);
  const hash = body.text === undefined ? waiver.versionHash : versionHash(body.text);
  const next: Waiver = {
    ...waiver,
    ...(body.title === undefined ? {} : { title: body.title }),
    ...(body.kind === undefined ? {} : { kind: body.kind }),
    ...(hash === waiver.versionHash ? {} : { versionHash: hash, versionPublished: now().toISOString() }),
  };
  const changes: FieldChanges = {};
  for (const field of ['title', 'kind', 'versionHash'] as const)
    if (next[field] !== waiver[field])
      changes[`waivers.${waiverId}.${field}`] = { from: waiver[field], to: next[field] };
  if (!Object.keys(changes).length) return waiver;
  const items = waiverItems(next, body.text ?? '');
  await commitPart(caller, event, 'waiver_updated', changes, [
    { put: items.waiver, existing: true },
    // Versions are named by their text's hash: publishing an earlier text again rewrites the same item.
    ...(hash === waiver.versionHash ? [] : [{ put: items.version }]),
  ]);
  return next;
}

export async function deleteWaiverFor(caller: Caller, eventId: number, waiverId: number): Promise<void> {
  const event = await eventAtVersion(caller, eventId, undefined);
  const waiver = await waiverOf(eventId, waiverId);
  const checks = await assertUnused(
    eventId,
    waiver.ticketTypeId === null ? { kind: 'event' } : { kind: 'type', id: waiver.ticketTypeId },
    `Waiver ${waiverId}`,
  );
  await commitPart(caller, event, 'waiver_deleted', { [`waivers.${waiverId}`]: { from: waiver.title, to: null } }, [
    { delete: keys.waiver(eventId, waiver.ticketTypeId, waiverId) },
    ...checks,
  ]);
}
