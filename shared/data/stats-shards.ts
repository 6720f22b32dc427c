import { MAX_STATS_EVENTS } from '../domain/ticket.ts';
import { keys } from './keys.ts';

/**
 * The layout of an event's statistics shards (`EVENT#<id>` / `STATS#<shard>`), created with the
 * event: what they hold and how a ticket change moves them is the list engine's
 * (shared/lists/ticket-stats.ts).
 */
export const STATS_SHARDS = 10;
// One BatchGetItem reads at most 100 keys: the stats route takes at most MAX_STATS_EVENTS events.
if (STATS_SHARDS * MAX_STATS_EVENTS > 100)
  throw new Error('STATS_SHARDS × MAX_STATS_EVENTS must fit one BatchGetItem (100 keys).');

export const shardOf = (ticketId: number): number => ticketId % STATS_SHARDS;

/** A fresh shard, written when the event is created so map updates find `checkedIn`. */
export const emptyShard = (eventId: number, shard: number) => ({
  ...keys.eventStats(eventId, shard),
  entity: 'EventStats',
  sold: 0,
  checkedIn: {},
  listed: {},
});
