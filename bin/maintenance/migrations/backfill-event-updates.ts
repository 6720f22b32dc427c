/**
 * One-off, after the release that brought each event's own update-time shards (README
 * "Data migrations"), run after backfill-ticket-lists.ts: gives every
 * ticket written before it (deleted ones too: the sync reports deletions) its key in its
 * event's shards (GSI5 `EVENT_UPDATES#<eventId>#<shard>`, see shared/data/keys.ts
 * `eventUpdates`), then marks every event (`EVENT#<id>` / `UPDATES#kept`), so
 * `GET /ticket?eventId=…&updatedFrom=…` reads only that event's changes. Events created
 * since the release are marked already. Migration 5 (catalogue.ts).
 *
 * Idempotent: a ticket is written only when it has no key there yet, conditional on its
 * version (a ticket changed meanwhile got the key from that change, and is skipped).
 * Resumable: tickets are done in id order, 100 at a time, and the last one finished is kept
 * in the table (`MAINTENANCE#backfill-event-updates` / `CHECKPOINT#<run>`); a re-run goes on
 * after it unless `restart`. A ticket still holding its purchase list key on GSI5 (stored
 * before the list entries) is left to backfill-ticket-lists.ts, which gives it this key too,
 * and its event is not marked. Maintenance reads (a Scan for the ticket and event ids), never
 * a request's.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { keyAttributes } from '#shared/data/key-conditions';
import { TICKET_UPDATE_SHARDS } from '#shared/data/ticket-records';
import { checkpointOf, recordIds, type RunOptions, type Stopped } from './runs.ts';

export interface EventUpdatesBackfillOutcome extends Stopped {
  /** Tickets given their key in their event's shards. */
  updated: number;
  /** Tickets that had it already (written since the release, or by an earlier run). */
  kept: number;
  /** Changed while the run read them: the change wrote the key. */
  skipped: number;
  /** Tickets still holding their purchase list key (run backfill-ticket-lists.ts first), by id; their events stay unmarked. */
  beforeEntries: number[];
  /** Events marked. */
  events: number;
}

export interface EventUpdatesBackfillOptions extends RunOptions {
  /** Only these tickets and events (tests); default every one. */
  tickets?: number[];
  events?: number[];
}

const CHUNK = 100;
const { partition: SHARD_KEY, sort: SHARD_SORT } = keyAttributes(keys.eventUpdates(0, 0));
const OWN_SHARDS = keys.eventUpdates(0, 0).value.split('#')[0]!;

/** Gives the tickets their key in id order from after the run's checkpoint, then marks the events. */
export async function backfillEventUpdates({
  tickets,
  events,
  run = 'all',
  restart = false,
  progress,
  stop,
}: EventUpdatesBackfillOptions = {}): Promise<EventUpdatesBackfillOutcome> {
  const all = (tickets ?? (await recordIds('TICKET'))).sort((a, b) => a - b);
  const checkpoint = checkpointOf('backfill-event-updates', run, 'lastTicketId');
  const after = restart ? 0 : ((await checkpoint.last()) ?? 0);
  const todo = all.filter((id) => id > after);
  const outcome: EventUpdatesBackfillOutcome = { updated: 0, kept: 0, skipped: 0, beforeEntries: [], events: 0 };
  const unmarked = new Set<number>();
  for (let start = 0; start < todo.length; start += CHUNK) {
    if (stop?.()) return { ...outcome, stopped: true };
    const chunk = todo.slice(start, start + CHUNK);
    const items = await batchGet(
      chunk.map((id) => keys.ticket(id)),
      { projection: `#id, eventId, updated, version, ${SHARD_KEY}`, names: { '#id': 'id' } },
    );
    for (const item of items) if (item) await placeOne(item, outcome, unmarked);
    await checkpoint.done(chunk.at(-1)!);
    progress?.(all.length - todo.length + start + chunk.length, all.length);
  }
  for (const eventId of events ?? (await recordIds('EVENT'))) {
    if (unmarked.has(eventId)) continue;
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.eventUpdatesKept(eventId), entity: 'EventUpdatesKept' },
      }),
    );
    outcome.events += 1;
  }
  return outcome;
}

async function placeOne(
  item: Record<string, unknown>,
  outcome: EventUpdatesBackfillOutcome,
  unmarked: Set<number>,
): Promise<void> {
  const [id, eventId] = [Number(item.id), Number(item.eventId)];
  const held = item[SHARD_KEY] as string | undefined;
  if (held?.startsWith(`${OWN_SHARDS}#`)) {
    outcome.kept += 1;
    return;
  }
  if (held !== undefined) {
    outcome.beforeEntries.push(id);
    unmarked.add(eventId);
    return;
  }
  const placed = keys.eventUpdateIndexes(eventId, id % TICKET_UPDATE_SHARDS, String(item.updated), id);
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.ticket(id),
        UpdateExpression: 'SET #shard = :shard, #sort = :sort',
        ConditionExpression: '#version = :version AND attribute_not_exists(#shard)',
        ExpressionAttributeNames: { '#shard': SHARD_KEY, '#sort': SHARD_SORT, '#version': 'version' },
        ExpressionAttributeValues: {
          ':shard': placed[SHARD_KEY],
          ':sort': placed[SHARD_SORT],
          ':version': item.version,
        },
      }),
    );
    outcome.updated += 1;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    outcome.skipped += 1;
  }
}
