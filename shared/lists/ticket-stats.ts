import {
  checkedInFromSignatures,
  eventsOfSignature,
  MAX_STATS_EVENTS,
  type TicketRecord,
} from '../tickets/domain/ticket.ts';
import { shardOf, STATS_SHARDS } from '../tickets/data/stats-shards.ts';
import type { CheckInStats } from '../gate/domain/check-in.ts';
import { batchGet, tableName } from '../data/client.ts';
import { countMap } from '../data/stored-items.ts';
import { countersUpdate } from '../data/counters.ts';
import { keys } from '../data/keys.ts';
import { PositionDelta } from './list-positions.ts';
import type { ListName } from './list-names.ts';
import { PurchaseDelta } from './purchase-counts.ts';
import { grantedEvents } from './ticket-list-entries.ts';

/**
 * Check-in statistics, kept exact by the ticket transactions.
 *
 * Per event, STATS_SHARDS items `TICKET_COUNTS#<id>#<shard>` / `STATS#<shard>` (each its own partition
 * key, shared/tickets/data/stats-shards.ts says why) hold
 * - `sold`: the shard's share of the sum of the event's ticket types' sold counts;
 * - `checkedIn`: a map from signature (the sorted, comma-joined events an eligible ticket
 *   currently counts as checked in for, e.g. "12" or "12,15") to the number of tickets of
 *   the shard with that signature.
 * A ticket lives in its id's shard (`shardOf`: its run of ids) of every event of its signature, and a
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
 *
 * And the list filters' counts, one top-level number attribute each (no parent map, so
 * a shard without one needs nothing first: `if_not_exists` starts it at 0):
 * `n#team#<teamKey>#<state>`, `n#type#<typeId>#<state>` and `n#tt#<teamKey>#<typeId>#<state>`
 * (team and type together) and `n#wave#<waveTimeId>#<state>` (tickets with a wave: what keeps a
 * wave in use from being deleted, part-usage.ts) in the ticket's own event,
 * `n#access#<state>` (and by team, type and both: `n#access#team#…`, `n#access#type#…`,
 * `n#access#tt#…`) in each other event its type grants entry to. Keyed by state too, so
 * `exclude_process_states` combines with each of them exactly.
 */
/** The counter attributes of the list filters (see above). */
export const filterCount = {
  team: (teamKey: number, state: number) => `n#team#${teamKey}#${state}`,
  type: (typeId: number, state: number) => `n#type#${typeId}#${state}`,
  teamType: (teamKey: number, typeId: number, state: number) => `n#tt#${teamKey}#${typeId}#${state}`,
  wave: (waveTimeId: number, state: number) => `n#wave#${waveTimeId}#${state}`,
  access: (state: number) => `n#access#${state}`,
  /** The granted tickets by their team, type and both (in the granted event): `accessEvents` with `teams` or `ticket_types`. */
  accessTeam: (teamKey: number, state: number) => `n#access#team#${teamKey}#${state}`,
  accessType: (typeId: number, state: number) => `n#access#type#${typeId}#${state}`,
  accessTeamType: (teamKey: number, typeId: number, state: number) => `n#access#tt#${teamKey}#${typeId}#${state}`,
};

/** The counters a ticket moves in each event its type grants entry to: all granted, and by team, type and both. */
export const grantedCounts = (record: TicketRecord): string[] => {
  const [team, type, state] = [record.teamId ?? 0, record.typeId, record.processState];
  return [
    filterCount.access(state),
    filterCount.accessTeam(team, state),
    filterCount.accessType(type, state),
    filterCount.accessTeamType(team, type, state),
  ];
};

const OLDER: ListName[] = ['older-tickets'];

/**
 * Accumulates the statistics moves of one transaction, one update per shard item (a transaction may touch an item
 * once). `positions`: which position items move with them, the all-events totals alone (a change's transaction: the
 * blocks are the stream's consumer's, list-catch-up.ts) or every block (a bulk load, which writes the entries itself).
 */
export class StatsDelta {
  constructor(positions: 'totals' | 'every') {
    this.positions = new PositionDelta(positions);
  }

  private readonly shards = new Map<
    string,
    {
      eventId: number;
      shard: number;
      sold: number;
      signatures: Map<string, number>;
      listed: Map<string, number>;
      counts: Map<string, number>;
    }
  >();

  private entry(eventId: number, shard: number) {
    const id = `${eventId}/${shard}`;
    const entry = this.shards.get(id) ?? {
      eventId,
      shard,
      sold: 0,
      signatures: new Map(),
      listed: new Map(),
      counts: new Map(),
    };
    this.shards.set(id, entry);
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

  /** The lists' block positions move with their counts (list-positions.ts), the event's purchase counts (purchase-counts.ts) and the customers' ticket counts. */
  private readonly positions: PositionDelta;
  private readonly purchases = new PurchaseDelta();
  private readonly customers = new Map<number, number>();

  /** A live ticket enters (+1) or leaves (-1) every list: its event's `listed`, its team's, type's, granted events' and customer's counts, and their positions. */
  listedTicket(record: TicketRecord, delta: number): void {
    this.positions.listedTicket(record, delta);
    this.purchases.listedTicket(record, delta);
    if (record.customerId != null)
      this.customers.set(record.customerId, (this.customers.get(record.customerId) ?? 0) + delta);
    this.listed(record.eventId, record.id, record.processState, delta);
    const own = this.entry(record.eventId, shardOf(record.id));
    const add = (counts: Map<string, number>, name: string) => counts.set(name, (counts.get(name) ?? 0) + delta);
    add(own.counts, filterCount.team(record.teamId ?? 0, record.processState));
    add(own.counts, filterCount.type(record.typeId, record.processState));
    add(own.counts, filterCount.teamType(record.teamId ?? 0, record.typeId, record.processState));
    if (record.waveTimeId != null) add(own.counts, filterCount.wave(record.waveTimeId, record.processState));
    for (const eventId of grantedEvents(record)) {
      const granted = this.entry(eventId, shardOf(record.id)).counts;
      for (const name of grantedCounts(record)) add(granted, name);
    }
  }

  signature(ticketId: number, before: string, after: string): void {
    if (before === after) return;
    for (const [signature, delta] of [
      [before, -1],
      [after, 1],
    ] as const) {
      for (const eventId of eventsOfSignature(signature)) {
        const entry = this.entry(eventId, shardOf(ticketId));
        entry.signatures.set(signature, (entry.signatures.get(signature) ?? 0) + delta);
      }
    }
  }

  /** The transaction actions: one Update per touched shard item and per touched position block. */
  actions() {
    return this.labelled().map(({ action }) => action);
  }

  /**
   * The same, each with the lists it keeps: a shard holds `GET /tickets`' counts and the check-in
   * statistics; an event's position blocks position both ticket lists, a customer's and the
   * purchase counts the older one; the customer's ticket count counts it.
   */
  labelled() {
    const actions = [];
    for (const { eventId, shard, sold, signatures, listed, counts } of this.shards.values()) {
      const moves = [...signatures].filter(([, delta]) => delta !== 0);
      const lists = [...listed].filter(([, delta]) => delta !== 0);
      const numbers = [...counts].filter(([, delta]) => delta !== 0);
      if (!sold && !moves.length && !lists.length && !numbers.length) continue;
      const set = moves.map((_, i) => `#c.#s${i} = if_not_exists(#c.#s${i}, :zero) + :d${i}`);
      set.push(...lists.map((_, i) => `#l.#p${i} = if_not_exists(#l.#p${i}, :zero) + :l${i}`));
      set.push(...numbers.map((_, i) => `#n${i} = if_not_exists(#n${i}, :zero) + :n${i}`));
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
            ...Object.fromEntries(numbers.map(([name], i) => [`#n${i}`, name])),
            ...(sold ? { '#sold': 'sold' } : {}),
            ...Object.fromEntries(moves.map(([signature], i) => [`#s${i}`, signature])),
          },
          ExpressionAttributeValues: {
            ...(moves.length || lists.length || numbers.length ? { ':zero': 0 } : {}),
            ...Object.fromEntries(numbers.map(([, delta], i) => [`:n${i}`, delta])),
            ...Object.fromEntries(lists.map(([, delta], i) => [`:l${i}`, delta])),
            ...(sold ? { ':sold': sold } : {}),
            ...Object.fromEntries(moves.map(([, delta], i) => [`:d${i}`, delta])),
          },
        },
      });
    }
    // A check-in or an edit leaves its customer's count as it was: no Update.
    const customers = [...this.customers].flatMap(
      ([customerId, delta]) =>
        countersUpdate(keys.customerTicketCount(customerId), 'CustomerTicketCount', [['n', delta]]) ?? [],
    );
    const shards: ListName[] = ['tickets', 'check-in-stats'];
    return [
      ...actions.map((action) => ({ action, for: shards })),
      ...this.positions.byHolder().map(({ action, customer }) => ({
        action,
        for: customer ? OLDER : (['tickets', 'older-tickets'] satisfies ListName[]),
      })),
      ...[...this.purchases.actions(), ...customers].map((action) => ({ action, for: OLDER })),
    ];
  }
}

const shardKeys = (eventIds: readonly number[]) =>
  [...new Set(eventIds)].flatMap((eventId) =>
    Array.from({ length: STATS_SHARDS }, (_, shard) => keys.eventStats(eventId, shard)),
  );

// A statistics request reads every shard of its events: at most two BatchGetItems of 100 keys, sent together.
if (STATS_SHARDS * MAX_STATS_EVENTS > 200)
  throw new Error('STATS_SHARDS × MAX_STATS_EVENTS must fit two BatchGetItems (100 keys each).');

/** The spec's statistics of the given events: one BatchGetItem of their shards. */
export async function readCheckInStats(eventIds: number[]): Promise<CheckInStats> {
  const events = [...new Set(eventIds)];
  let soldTickets = 0;
  const counts = new Map<string, number>();
  for (const item of await batchGet(shardKeys(events), {
    projection: '#sold, checkedIn',
    names: { '#sold': 'sold' },
  })) {
    if (!item) continue;
    soldTickets += Number(item.sold ?? 0);
    // Each (shard, signature) pair once: the same pair is stored under every event of the signature.
    for (const [signature, count] of Object.entries(countMap(item, 'checkedIn', 'stats shard')))
      counts.set(`${item.SK}|${signature}`, count);
  }
  const bySignature = new Map<string, number>();
  for (const [key, count] of counts) {
    const signature = key.slice(key.indexOf('|') + 1);
    bySignature.set(signature, (bySignature.get(signature) ?? 0) + count);
  }
  return { eventIds: events, soldTickets, checkedInTickets: checkedInFromSignatures(bySignature, events) };
}

/** The events' shards (one BatchGetItem per 100 keys), only `listed` and the named counter attributes. */
export async function readListCounts(
  eventIds: readonly number[],
  counters: readonly string[],
): Promise<Record<string, unknown>[]> {
  const names = Object.fromEntries(counters.map((name, i) => [`#n${i}`, name]));
  const projection = ['listed', ...Object.keys(names)].join(', ');
  return (await batchGet(shardKeys(eventIds), { projection, names: counters.length ? names : undefined })).flatMap(
    (item) => (item ? [item] : []),
  );
}
