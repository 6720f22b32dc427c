import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { checkedInFromSignatures, eventsOfSignature, MAX_STATS_EVENTS } from '../domain/ticket.ts';
import { db, tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * Check-in statistics, kept exact by the ticket transactions.
 *
 * Per event, STATS_SHARDS items `EVENT#<id>` / `STATS#<shard>` hold
 * - `sold`: the shard's share of the sum of the event's ticket types' sold counts;
 * - `checkedIn`: a map from signature (the sorted, comma-joined events an eligible ticket
 *   currently counts as checked in for, e.g. "12" or "12,15") to the number of tickets of
 *   the shard with that signature.
 * A ticket lives in shard `ticketId % STATS_SHARDS` of every event of its signature, and a
 * change of its signature is written, in the ticket's own transaction, to the shard of
 * every event of the old and the new signature. So a (shard, signature) pair has the same
 * count in every event it is stored under, and the statistics of a set of events are: one
 * BatchGetItem of their shards, union of the (shard, signature) counts (each pair once),
 * sum over the signatures that meet the set. A ticket counts once however many of the
 * requested events it matches. Sharding spreads a door rush over STATS_SHARDS items.
 *
 * The shards also hold `listed`: processState → number of the event's non-deleted
 * tickets (those in its GSI1 list), so `GET /tickets` gets `totalCount` without reading
 * the whole list.
 */
export const STATS_SHARDS = 10;
// One BatchGetItem reads at most 100 keys: the stats route takes at most MAX_STATS_EVENTS events.
if (STATS_SHARDS * MAX_STATS_EVENTS > 100) throw new Error('STATS_SHARDS × MAX_STATS_EVENTS must fit one BatchGetItem (100 keys).');

export const shardOf = (ticketId: number): number => ticketId % STATS_SHARDS;

/** A fresh shard, written when the event is created so map updates find `checkedIn`. */
export const emptyShard = (eventId: number, shard: number) => ({
  ...keys.eventStats(eventId, shard),
  entity: 'EventStats',
  sold: 0,
  checkedIn: {},
  listed: {},
});

/** Accumulates the statistics moves of one transaction, one update per shard item (a transaction may touch an item once). */
export class StatsDelta {
  private readonly shards = new Map<
    string,
    { eventId: number; shard: number; sold: number; signatures: Map<string, number>; listed: Map<string, number> }
  >();

  private entry(eventId: number, shard: number) {
    const id = `${eventId}/${shard}`;
    let entry = this.shards.get(id);
    if (!entry) this.shards.set(id, (entry = { eventId, shard, sold: 0, signatures: new Map(), listed: new Map() }));
    return entry;
  }

  sold(eventId: number, ticketId: number, delta: number): void {
    if (delta) this.entry(eventId, shardOf(ticketId)).sold += delta;
  }

  /** A ticket enters (+1) or leaves (-1) its event's list under a processState. */
  listed(eventId: number, ticketId: number, processState: number, delta: number): void {
    const entry = this.entry(eventId, shardOf(ticketId));
    entry.listed.set(String(processState), (entry.listed.get(String(processState)) ?? 0) + delta);
  }

  signature(ticketId: number, before: string, after: string): void {
    if (before === after) return;
    for (const [signature, delta] of [[before, -1], [after, 1]] as const) {
      for (const eventId of eventsOfSignature(signature)) {
        const entry = this.entry(eventId, shardOf(ticketId));
        entry.signatures.set(signature, (entry.signatures.get(signature) ?? 0) + delta);
      }
    }
  }

  /** The transaction actions: one Update per touched shard item. */
  actions() {
    const actions = [];
    for (const { eventId, shard, sold, signatures, listed } of this.shards.values()) {
      const moves = [...signatures].filter(([, delta]) => delta !== 0);
      const lists = [...listed].filter(([, delta]) => delta !== 0);
      if (!sold && !moves.length && !lists.length) continue;
      const set = moves.map((_, i) => `#c.#s${i} = if_not_exists(#c.#s${i}, :zero) + :d${i}`);
      set.push(...lists.map((_, i) => `#l.#p${i} = if_not_exists(#l.#p${i}, :zero) + :l${i}`));
      if (sold) set.push('#sold = #sold + :sold');
      actions.push({
        Update: {
          TableName: tableName(),
          Key: keys.eventStats(eventId, shard),
          UpdateExpression: `SET ${set.join(', ')}`,
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: {
            ...(moves.length ? { '#c': 'checkedIn' } : {}),
            ...(lists.length ? { '#l': 'listed' } : {}),
            ...Object.fromEntries(lists.map(([state], i) => [`#p${i}`, state])),
            ...(sold ? { '#sold': 'sold' } : {}),
            ...Object.fromEntries(moves.map(([signature], i) => [`#s${i}`, signature])),
          },
          ExpressionAttributeValues: {
            ...(moves.length || lists.length ? { ':zero': 0 } : {}),
            ...Object.fromEntries(lists.map(([, delta], i) => [`:l${i}`, delta])),
            ...(sold ? { ':sold': sold } : {}),
            ...Object.fromEntries(moves.map(([, delta], i) => [`:d${i}`, delta])),
          },
        },
      });
    }
    return actions;
  }
}

export interface CheckInStats {
  eventIds: number[];
  soldTickets: number;
  checkedInTickets: number;
}

/** The spec's statistics of the given events: one BatchGetItem of their shards (retried only for unprocessed keys). */
export async function readCheckInStats(eventIds: number[]): Promise<CheckInStats> {
  const events = [...new Set(eventIds)];
  let pending: Record<string, unknown>[] | undefined = events.flatMap((eventId) =>
    Array.from({ length: STATS_SHARDS }, (_, shard) => keys.eventStats(eventId, shard)),
  );
  let soldTickets = 0;
  const counts = new Map<string, number>();
  while (pending?.length) {
    const { Responses, UnprocessedKeys }: BatchGetCommandOutput = await db.send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }),
    );
    for (const item of Responses?.[tableName()] ?? []) {
      soldTickets += Number(item.sold ?? 0);
      const shard = String(item.SK);
      for (const [signature, count] of Object.entries((item.checkedIn ?? {}) as Record<string, number>)) {
        counts.set(`${shard}|${signature}`, Number(count));
      }
    }
    pending = UnprocessedKeys?.[tableName()]?.Keys;
  }
  const bySignature = new Map<string, number>();
  for (const [key, count] of counts) {
    const signature = key.slice(key.indexOf('|') + 1);
    bySignature.set(signature, (bySignature.get(signature) ?? 0) + count);
  }
  return { eventIds: events, soldTickets, checkedInTickets: checkedInFromSignatures(bySignature, events) };
}

/**
 * How many non-deleted tickets the events list, not counting the excluded process
 * states: BatchGetItem of their shards (100 keys per call).
 */
export async function countListed(eventIds: number[], excludedStates: readonly number[] = []): Promise<number> {
  const excluded = new Set(excludedStates.map(String));
  const all = [...new Set(eventIds)].flatMap((eventId) => Array.from({ length: STATS_SHARDS }, (_, shard) => keys.eventStats(eventId, shard)));
  let total = 0;
  for (let start = 0; start < all.length; start += 100) {
    let pending: Record<string, unknown>[] | undefined = all.slice(start, start + 100);
    while (pending?.length) {
      const { Responses, UnprocessedKeys }: BatchGetCommandOutput = await db.send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ProjectionExpression: 'listed' } } }),
      );
      for (const item of Responses?.[tableName()] ?? []) {
        for (const [state, count] of Object.entries((item.listed ?? {}) as Record<string, number>)) {
          if (!excluded.has(state)) total += Number(count);
        }
      }
      pending = UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return total;
}
