/**
 * One-off, after the release that made the portal's lists walk by cursor (README "Data
 * migrations"): gives every published event written before it its search entries
 * (`EVENT#<id>` / `SEARCH#<start>`, shared/data/portal-event-index.ts), every customer's
 * link to an event its start-ordered index keys (keys.ts `customerEventIndexes`), and counts
 * the published events (`COUNT#PUBLISHED_EVENTS`, then `kept`, so the default list's
 * totalCount is exact). Events and orders created since the release have all of it already.
 * Migration 6 (catalogue.ts).
 *
 * Idempotent: entries are put whole, a link is updated only when it has no key yet, the count
 * is set from a full count of the published index, conditional on no event being counted
 * meanwhile (else counted again). Resumable: events are done in id order, 100 at a time, the
 * last one finished kept (`MAINTENANCE#backfill-portal-events` / `CHECKPOINT#<run>`); the
 * links by a resumable Scan. Maintenance reads (Scans, a count of an index to its end), never
 * a request's.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { keyAttributes, keyCondition } from '#shared/data/key-conditions';
import { eventSearchItems } from '#shared/data/portal-event-index';
import { checkpointOf, recordIds, resumableScan, type RunOptions, type Stopped } from './runs.ts';

export interface PortalEventsBackfillOutcome extends Stopped {
  /** Published events given their search entries. */
  events: number;
  /** Links given their start-ordered keys. */
  links: number;
  /** The published events counted. */
  published: number;
}

export interface PortalEventsBackfillOptions extends RunOptions {
  /** Only these events, and only these customers' links (tests); default every one. */
  events?: number[];
  customers?: number[];
}

const CHUNK = 100;
const COMMAND = 'backfill-portal-events';
const EVENT_FIELDS = {
  projection: '#id, title, description, venue, venueAddress, startsAt, published',
  names: { '#id': 'id' },
};

export async function backfillPortalEvents({
  events,
  customers,
  run = 'all',
  restart = false,
  progress,
  stop,
}: PortalEventsBackfillOptions = {}): Promise<PortalEventsBackfillOutcome> {
  const outcome: PortalEventsBackfillOutcome = { events: 0, links: 0, published: 0 };
  const all = (events ?? (await recordIds('EVENT'))).sort((a, b) => a - b);
  const checkpoint = checkpointOf(COMMAND, run, 'lastEventId');
  const after = restart ? 0 : ((await checkpoint.last()) ?? 0);
  const todo = all.filter((id) => id > after);
  for (let start = 0; start < todo.length; start += CHUNK) {
    if (stop?.()) return { ...outcome, stopped: true };
    const chunk = todo.slice(start, start + CHUNK);
    const items = await batchGet(
      chunk.map((id) => keys.event(id)),
      EVENT_FIELDS,
    );
    for (const item of items) {
      if (!item?.published) continue;
      const entries = eventSearchItems({
        id: Number(item.id),
        startsAt: String(item.startsAt),
        title: String(item.title ?? ''),
        description: String(item.description ?? ''),
        venue: String(item.venue ?? ''),
        venueAddress: String(item.venueAddress ?? ''),
      });
      await Promise.all(entries.map((Item) => db.send(new PutCommand({ TableName: tableName(), Item }))));
      outcome.events += 1;
    }
    await checkpoint.done(chunk.at(-1)!);
    progress?.(all.length - todo.length + start + chunk.length, all.length);
  }
  const linked = (links: Record<string, unknown>[]) => placeLinks(links, outcome);
  if (customers) {
    for (const customerId of customers) {
      const { Items = [] } = await db.send(
        new QueryCommand({
          TableName: tableName(),
          ...keyCondition(keys.customerItems(customerId), { beginsWith: keys.customerEventPrefix }),
          Limit: 1000,
        }),
      );
      await linked(Items);
    }
  } else {
    const finished = await resumableScan(
      `${COMMAND}-links`,
      { run, restart, stop },
      {
        TableName: tableName(),
        FilterExpression: 'entity = :entity AND attribute_not_exists(#sort)',
        ExpressionAttributeNames: { '#sort': LINK_SORT },
        ExpressionAttributeValues: { ':entity': 'CustomerEvent' },
      },
      linked,
    );
    if (!finished) return { ...outcome, stopped: true };
  }
  outcome.published = await recountPublished();
  return outcome;
}

const LINK_SORT = keyAttributes(keys.customerEventsByStart(0)).sort;

/** Each link without its keys gets them from its event; a link the order path rewrote meanwhile keeps its own. */
async function placeLinks(links: Record<string, unknown>[], outcome: PortalEventsBackfillOutcome): Promise<void> {
  const todo = links.filter((link) => link.entity === 'CustomerEvent' && link[LINK_SORT] === undefined);
  if (!todo.length) return;
  const events = await batchGet(
    [...new Set(todo.map((link) => Number(link.eventId)))].map((id) => keys.event(id)),
    EVENT_FIELDS,
  );
  const byId = new Map(events.flatMap((item) => (item ? [[Number(item.id), item] as const] : [])));
  for (const link of todo) {
    const event = byId.get(Number(link.eventId));
    if (!event) continue;
    const placed = keys.customerEventIndexes(Number(link.customerId), {
      id: Number(event.id),
      startsAt: String(event.startsAt),
      published: event.published === true,
    });
    const names = Object.keys(placed);
    try {
      await db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { PK: link.PK, SK: link.SK },
          UpdateExpression: `SET ${names.map((_, i) => `#k${i} = :k${i}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#sort)',
          ExpressionAttributeNames: {
            ...Object.fromEntries(names.map((name, i) => [`#k${i}`, name])),
            '#sort': LINK_SORT,
          },
          ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:k${i}`, placed[name]])),
        }),
      );
      outcome.links += 1;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}

/** Counts the published index to its end and sets the count, unless an event was counted meanwhile (then again). */
async function recountPublished(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName(), Key: keys.publishedEventCount(), ConsistentRead: true }),
    );
    let counted = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.send(
        new QueryCommand({
          TableName: tableName(),
          ...keyCondition(keys.publishedEvents),
          Select: 'COUNT',
          Limit: 5000,
          ExclusiveStartKey: start,
        }),
      );
      counted += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
    try {
      await db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.publishedEventCount(),
          UpdateExpression: 'SET entity = :entity, n = :counted, kept = :kept',
          ConditionExpression: Item?.n === undefined ? 'attribute_not_exists(n)' : 'n = :before',
          ExpressionAttributeValues: {
            ':entity': 'PublishedEventCount',
            ':counted': counted,
            ':kept': true,
            ...(Item?.n === undefined ? {} : { ':before': Item.n }),
          },
        }),
      );
      return counted;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException) || attempt >= 20) throw error;
    }
  }
}
