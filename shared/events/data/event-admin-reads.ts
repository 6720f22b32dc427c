import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Team } from '../domain/event.ts';
import { EventHistoryResource, type EventHistoryEntry } from '../domain/event-resource.ts';
import * as z from '../../schema.ts';
import { db, tableName } from '../../data/client.ts';
import { parseItem } from '../../data/stored-items.ts';
import { teamFromItem } from './event-items.ts';
import { keys } from '../../data/keys.ts';
import { keyCondition } from '../../data/key-conditions.ts';
import { TICKET_UPDATE_SHARDS } from '../../tickets/data/ticket-records.ts';

/**
 * What the events routes read beside the event (events.ts): the administrators' counts (their
 * lists' walk is shared/lists/events.ts), an event's teams, whether it or a type ever had
 * tickets, its history. Every Query has a Limit; none reads a partition to its end.
 */

/** Teams an event may hold (its creation allows 50; readers read at most this many). */
export const MAX_TEAMS = 200;

/** The administrators' counts: every event and the unpublished ones (absent before the first event). */
export async function eventCounts(): Promise<{ n: number; drafts: number }> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.eventCount() }));
  return { n: Number(Item?.n ?? 0), drafts: Number(Item?.drafts ?? 0) };
}

/** An event's teams in id order: one bounded Query. */
export async function listTeams(eventId: number): Promise<Team[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.eventItems(eventId), { beginsWith: keys.teamPrefix }),
      Limit: MAX_TEAMS,
    }),
  );
  return Items.map(teamFromItem);
}

/** Whether any ticket of the event was ever written (deleted ones too): its update-time shards, one item each at most. */
export async function eventHasTickets(eventId: number): Promise<boolean> {
  const shards = await Promise.all(
    Array.from({ length: TICKET_UPDATE_SHARDS }, (_, shard) =>
      db.send(
        new QueryCommand({
          TableName: tableName(),
          ...keyCondition(keys.eventUpdates(eventId, shard)),
          Limit: 1,
          ProjectionExpression: 'PK',
        }),
      ),
    ),
  );
  return shards.some((page) => (page.Items?.length ?? 0) > 0);
}

/** Whether a live ticket of the type exists: one item of its list at most. */
export async function typeHasTickets(typeId: number): Promise<boolean> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.typeTickets(typeId)),
      Limit: 1,
      ProjectionExpression: 'PK',
    }),
  );
  return Items.length > 0;
}

// The answer's entry, as stored beside its keys (which parsing leaves out).
const EventHistoryItem = z.lazy(() => z.object(EventHistoryResource.shape));
const eventHistoryFromItem = (item: Record<string, unknown>): EventHistoryEntry =>
  parseItem(EventHistoryItem, item, 'event history entry');

/** One entry of an event's history, by the version its change made (a webhook message's, use-cases/webhooks): one GetItem. */
export async function readEventHistoryEntry(eventId: number, version: number): Promise<EventHistoryEntry | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.eventHistory(eventId, version), ConsistentRead: true }),
  );
  return Item ? eventHistoryFromItem(Item) : undefined;
}

/** A page of an event's history, newest first, from before a version (exclusive). */
export async function readEventHistory(
  eventId: number,
  page: { limit: number; before?: number },
): Promise<{ entries: EventHistoryEntry[]; more: boolean }> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(
        keys.eventHistoryOf(eventId),
        page.before === undefined
          ? { beginsWith: keys.eventHistoryPrefix }
          : { to: keys.eventHistory(eventId, page.before - 1).SK },
      ),
      ScanIndexForward: false,
      Limit: page.limit + 1,
    }),
  );
  const entries = Items.slice(0, page.limit).map(eventHistoryFromItem);
  return { entries, more: Items.length > page.limit };
}
