import type { NewWaveBody, WavePatchBody } from '../domain/event-bodies.ts';
import { allocateIds } from '../../data/counters.ts';
import { MAX_WAVE_TIMES, type WaveTime } from '../domain/event.ts';
import { waveTimeItem } from '../data/event-items.ts';
import { keys } from '../../data/keys.ts';
import { listWaveTimes } from '../data/wave-times.ts';
import type { FieldChanges } from '../domain/event-admin.ts';

import { Conflict, NotFound } from '../../errors.ts';
import type { Caller } from './event-reads.ts';
import { commitPart, eventAtVersion } from './parts.ts';
import { assertUnused } from '../../lists/tickets.ts';

/**
 * The wave-time routes, one wave at a time (they are items of their own, as teams are).
 * Tickets name their wave by id and the portal, tickets and gate read its name and start
 * from the wave item, so an edit shows at once. A wave a live ticket has stays (409
 * `in_use` with their count, from the event's kept wave counters).
 */

async function waveOf(eventId: number, waveId: number) {
  const wave = (await listWaveTimes(eventId)).find((candidate) => candidate.id === waveId);
  if (!wave) throw new NotFound('Wave time', waveId);
  return wave;
}

export async function createWaveFor(caller: Caller, eventId: number, body: NewWaveBody): Promise<WaveTime> {
  const event = await eventAtVersion(caller, eventId, body.version);
  if ((await listWaveTimes(eventId)).length >= MAX_WAVE_TIMES)
    throw new Conflict(`An event holds at most ${MAX_WAVE_TIMES} wave times.`, 'too_many_wave_times');
  const { version: _version, ...fields } = body;
  const wave: WaveTime = { id: await allocateIds('WAVE'), eventId, ...fields };
  await commitPart(caller, event, 'wave_created', { [`waveTimes.${wave.id}`]: { from: null, to: fields } }, [
    { put: waveTimeItem(wave), existing: false },
  ]);
  return wave;
}

export async function updateWaveFor(
  caller: Caller,
  eventId: number,
  waveId: number,
  body: WavePatchBody,
): Promise<WaveTime> {
  const event = await eventAtVersion(caller, eventId, body.version);
  const wave = await waveOf(eventId, waveId);
  const changes: FieldChanges = {};
  for (const field of ['name', 'startTime', 'capacity'] as const)
    if (body[field] !== undefined && body[field] !== wave[field])
      changes[`waveTimes.${waveId}.${field}`] = { from: wave[field], to: body[field] };
  if (!Object.keys(changes).length) return wave;
  const next: WaveTime = {
    ...wave,
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(body.startTime === undefined ? {} : { startTime: body.startTime }),
    ...(body.capacity === undefined ? {} : { capacity: body.capacity }),
  };
  await commitPart(caller, event, 'wave_updated', changes, [{ put: waveTimeItem(next), existing: true }]);
  return next;
}

export async function deleteWaveFor(caller: Caller, eventId: number, waveId: number): Promise<void> {
  const event = await eventAtVersion(caller, eventId, undefined);
  const wave = await waveOf(eventId, waveId);
  const checks = await assertUnused(eventId, { kind: 'wave', id: waveId }, `Wave time ${waveId}`);
  await commitPart(caller, event, 'wave_deleted', { [`waveTimes.${waveId}`]: { from: wave.name, to: null } }, [
    { delete: keys.waveTime(eventId, waveId) },
    ...checks,
  ]);
}
