import { now } from '../../clock.ts';
import { keys } from '../../data/keys.ts';
import { listPromoCodes, promoCodeItemsOf } from '../../selling/data/promo-codes.ts';
import { listTicketTypes } from '../data/events.ts';
import { listTeams } from '../data/event-admin-reads.ts';
import { commitEventDeletion, eventLeftovers } from '../data/event-admin-writes.ts';
import { listWaveTimes } from '../data/wave-times.ts';
import { eventWaivers } from '../data/waivers.ts';
import { eventListingMoves } from '../../lists/event-listing.ts';
import { checkDeletable } from '../domain/event-admin.ts';
import { assertVersion } from './edit-events.ts';
import { eventFor, holdsOf, type Caller } from './event-reads.ts';

/**
 * `DELETE /events/{id}`: only an event that never had tickets (409 otherwise: unpublish it). Everything of it goes
 * with it: its types and their stock, teams, waves, waivers, statistics shards and its promo codes (each code, its
 * pointer, its uses' shards and the event's count of codes: selling/data/promo-codes.ts). A module apart from the
 * event's creation and edits, so `POST /events` does not reach the promo codes' storage.
 */
export async function deleteEventFor(caller: Caller, id: number, version?: number): Promise<{ id: number }> {
  const before = await eventFor(caller, id);
  assertVersion(before.version, version, id);
  const [types, teams, waves, waivers, promos] = await Promise.all([
    listTicketTypes(id),
    listTeams(id),
    listWaveTimes(id),
    eventWaivers(id),
    listPromoCodes(id),
  ]);
  checkDeletable(before, await holdsOf(before, types.length));
  const at = now().toISOString();
  const after = { ...before, version: (before.version ?? 1) + 1 };
  const change = { before, after, changes: {}, action: 'deleted' as const, by: caller.id, at };
  await commitEventDeletion(change, eventListingMoves(before, undefined), [
    ...eventLeftovers(id, { types, teamIds: teams.map((team) => team.id), waveIds: waves.map((wave) => wave.id) }),
    // Its waivers go with it (no ticket signed them: it never had tickets); their versions stay, as its history does.
    ...waivers.map((waiver) => keys.waiver(id, waiver.ticketTypeId, waiver.id)),
    ...promoCodeItemsOf(id, promos),
  ]);
  return { id };
}
