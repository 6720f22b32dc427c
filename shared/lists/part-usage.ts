import type { UsageCheck } from '../events/data/event-part-writes.ts';
import { countMap } from '../data/stored-items.ts';
import { keys } from '../data/keys.ts';
import { STATS_SHARDS } from '../tickets/data/stats-shards.ts';
import { PROCESS_STATES } from '../tickets/domain/ticket.ts';
import { Conflict } from '../errors.ts';
import { filterCount, readListCounts } from './ticket-stats.ts';

/**
 * How many of an event's tickets use one of its parts, from the counters the ticket
 * transactions keep in its statistics shards (shared/lists/ticket-stats.ts): one
 * BatchGetItem of STATS_SHARDS items, whatever the event sells. Counted are the live
 * tickets (those in the event's list: not deleted), in every process state.
 */
export type Usage =
  | { kind: 'team'; id: number }
  | { kind: 'wave'; id: number }
  | { kind: 'type'; id: number }
  | { kind: 'event' };

const countersOf = (usage: Usage): string[] =>
  usage.kind === 'event'
    ? []
    : PROCESS_STATES.map((state) =>
        usage.kind === 'team'
          ? filterCount.team(usage.id, state)
          : usage.kind === 'wave'
            ? filterCount.wave(usage.id, state)
            : filterCount.type(usage.id, state),
      );

export async function ticketsUsing(eventId: number, usage: Usage): Promise<number> {
  const counters = countersOf(usage);
  const shards = await readListCounts([eventId], counters);
  let sum = 0;
  for (const shard of shards) {
    if (usage.kind === 'event') {
      for (const count of Object.values(countMap(shard, 'listed', 'stats shard'))) sum += count;
    } else for (const name of counters) sum += Number(shard[name] ?? 0) || 0;
  }
  return sum;
}

const inUse = (what: string, tickets: number) =>
  new Conflict(`${what} is used by ${tickets} ticket${tickets === 1 ? '' : 's'}: it stays.`, 'in_use', { tickets });

/**
 * A part that tickets use stays: 409 `in_use` naming how many. Answers the checks its
 * removal's transaction carries, so a ticket that takes the part between this read and
 * that write refuses the removal too (the counters moved), never leaves a ticket naming
 * a part that is gone.
 */
export async function assertUnused(eventId: number, usage: Usage, what: string): Promise<UsageCheck[]> {
  const tickets = await ticketsUsing(eventId, usage);
  if (tickets > 0) throw inUse(what, tickets);
  const counters = usage.kind === 'event' ? PROCESS_STATES.map((state) => `listed.${state}`) : countersOf(usage);
  return Array.from({ length: STATS_SHARDS }, (_, shard) => ({
    check: keys.eventStats(eventId, shard),
    counters,
    refusal: () => inUse(what, 1),
  }));
}
