import type { CreatedEvent, Event, TicketType } from '../domain/event.ts';
import type { FieldChanges } from '../domain/event-admin.ts';
import type { EventHistoryEntry } from '../domain/event-resource.ts';
import { Conflict, ValidationError } from '../../errors.ts';
import { labelled, tableName, transactWrite, TransactionCancelled } from '../../data/client.ts';
import { forgetEventForSale } from '../../selling/data/event-sale-cache.ts';
import { moveEventCounts } from './event-counts.ts';
import { eventItem, ticketTypeItem } from './event-items.ts';
import { keys } from '../../data/keys.ts';
import { emptyShard, STATS_SHARDS } from '../../tickets/data/stats-shards.ts';

/**
 * The events routes' writes. Every change of an event or its types is one transaction,
 * conditional on the version it read (the event item's `version`, moved by each), with its
 * history entry (keys.ts `eventHistory`) and whatever keeps the lists exact: the event
 * item's list placements, the administrators' counts, `capacity` beside the types' `total`s,
 * and the portal's search entries and published count, which the list engine builds and the
 * use case passes in (shared/lists/portal.ts `eventListing`, `eventListingMoves`): data never
 * imports the engine.
 */
const MAX_ACTIONS = 100;

export type HistoryAction = EventHistoryEntry['action'];

/** What the list engine adds to an event's transaction: a Put or Delete of an entry, an Update of a count. */
export type ListingAction =
  | { Put: { TableName: string; Item: Record<string, unknown>; ConditionExpression?: string } }
  | { Delete: { TableName: string; Key: Record<string, unknown> } }
  | { Update: CountUpdate };

interface CountUpdate {
  TableName: string;
  Key: Record<string, unknown>;
  UpdateExpression: string;
  ExpressionAttributeValues: Record<string, unknown>;
}

/** What the portal's lists add to an event's creation (shared/lists/portal.ts `eventListing`). */
export interface EventListing {
  /** The actions a new event's transaction adds (a published one's search entries and count; a draft's none). */
  created(event: CreatedEvent): ListingAction[];
}

export interface EventChange {
  before: Event;
  after: Event;
  changes: FieldChanges;
  action: HistoryAction;
  by: number;
  at: string;
}

/** The condition that the event is still at the version read. */
export function atVersion(before: Event) {
  return before.version === undefined
    ? { ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(version)' }
    : {
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': before.version },
      };
}

/** The label of the event's own write (client.ts `labelled`): its condition failed when another edit came first. */
const EVENT_VERSION = 'event version';

/** The label of a ticket type's write and its stock's: one failed when a sale or a hold moved them. */
const TYPE_MOVED = 'ticket type';

/** The event as changed, written conditionally on the version read: every edit's first action. */
export const eventAtVersion = (change: EventChange) =>
  labelled(EVENT_VERSION, {
    Put: { TableName: tableName(), Item: eventItem(change.after), ...atVersion(change.before) },
  });

const staleVersion = (id: number) =>
  new Conflict(`Event ${id} changed meanwhile: read it again and retry.`, 'stale_version');

/** The history entry of a change, a conditional Put of its transaction (event-creation.ts writes a creation's). */
export const historyPut = (change: Omit<EventChange, 'before'>) => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...keys.eventHistory(change.after.id, change.after.version!),
      entity: 'EventHistory',
      eventId: change.after.id,
      version: change.after.version,
      at: change.at,
      by: change.by,
      action: change.action,
      changes: change.changes,
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** The administrators' counts' move between two states of the event (`after` undefined: its deletion). */
function countMoves(before: Event, after: Event | undefined) {
  const draft = (event: Event | undefined) => (event && !event.published ? 1 : 0);
  const n = (after ? 1 : 0) - 1;
  const drafts = draft(after) - draft(before);
  return n || drafts ? [moveEventCounts({ n, drafts })] : [];
}

export async function commit(eventId: number, actions: Record<string, unknown>[]) {
  if (actions.length > MAX_ACTIONS)
    throw new ValidationError(
      'This edit rewrites too many of the search index entries at once: change the title and the description in two edits.',
      [{ path: 'body.description', message: 'too many search index entries changed in one edit' }],
    );
  try {
    await transactWrite(actions as Parameters<typeof transactWrite>[0]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed(EVENT_VERSION)) throw staleVersion(eventId);
    throw error;
  }
  forgetEventForSale(eventId);
}

/** An edit of the event record (listing fields, start, publication) with the portal's moves (`listed`): one transaction. */
export async function commitEventChange(change: EventChange, listed: ListingAction[]): Promise<void> {
  await commit(change.before.id, [
    eventAtVersion(change),
    ...listed,
    ...countMoves(change.before, change.after),
    historyPut(change),
  ]);
}

/**
 * A deletion: the event item, the portal's moves (`listed`: its search entries and count) and
 * the counts in one transaction (conditional on its version), then the items that only it reads
 * (types, teams, waves, shards), which nothing finds once the event is gone. Its history stays.
 */
export async function commitEventDeletion(
  change: EventChange,
  listed: ListingAction[],
  rest: { PK: string; SK: string }[],
) {
  await commit(change.before.id, [
    labelled(EVENT_VERSION, {
      Delete: { TableName: tableName(), Key: keys.event(change.before.id), ...atVersion(change.before) },
    }),
    ...listed,
    ...countMoves(change.before, undefined),
    historyPut(change),
  ]);
  for (let start = 0; start < rest.length; start += MAX_ACTIONS)
    await transactWrite(
      rest.slice(start, start + MAX_ACTIONS).map((Key) => ({ Delete: { TableName: tableName(), Key } })),
    );
}

/** The keys a deleted event leaves in its partition (and its types' grants into other events). */
export function eventLeftovers(eventId: number, parts: { types: TicketType[]; teamIds: number[]; waveIds: number[] }) {
  return [
    ...parts.types.map((type) => keys.ticketType(eventId, type.id)),
    ...parts.types.flatMap((type) =>
      Array.from({ length: type.stockShards }, (_, shard) => keys.stock(type.id, shard)),
    ),
    ...parts.types.flatMap((type) => type.grants.map((granted) => keys.accessGrant(granted, type.id))),
    ...parts.teamIds.map((id) => keys.team(eventId, id)),
    ...parts.waveIds.map((id) => keys.waveTime(eventId, id)),
    ...Array.from({ length: STATS_SHARDS }, (_, shard) => {
      const { PK, SK } = emptyShard(eventId, shard);
      return { PK, SK };
    }),
  ] as { PK: string; SK: string }[];
}

/** A type's item never keeps a `sold` (its stock shards do), even one given a read type with it. */
function storedType(type: TicketType): TicketType {
  const { sold: _summed, ...stored } = type as TicketType & { sold?: number };
  return stored;
}

/**
 * A type's creation, edit or deletion with the event's version, capacity and history: one
 * transaction. `stock`: the moves of its stock items (shared/selling/data/stock.ts), each conditional
 * on the shard as read: a total's fall on the `left` it takes (a sale between the read and the
 * write cannot be oversold), a deletion on nothing held and each shard's `sold` as read (none in sum).
 */
export async function commitTypeChange(
  change: EventChange,
  type: { before?: TicketType; after?: TicketType },
  stock: Record<string, unknown>[] = [],
): Promise<void> {
  const { before, after } = type;
  const eventId = change.before.id;
  const typeAction = after
    ? labelled(TYPE_MOVED, {
        Put: {
          TableName: tableName(),
          Item: ticketTypeItem(storedType(after)),
          ConditionExpression: before ? 'attribute_exists(PK)' : 'attribute_not_exists(PK)',
        },
      })
    : labelled(TYPE_MOVED, {
        Delete: {
          TableName: tableName(),
          Key: keys.ticketType(eventId, before!.id),
          ConditionExpression: 'attribute_exists(PK)',
        },
      });
  const grants = (held: TicketType | undefined) => new Set(held?.grants ?? []);
  const [had, has] = [grants(before), grants(after)];
  const typeId = (after ?? before)!.id;
  const grantActions = [
    ...[...has]
      .filter((granted) => !had.has(granted))
      .map((granted) => ({
        Put: {
          TableName: tableName(),
          Item: { ...keys.accessGrant(granted, typeId), entity: 'AccessGrant', typeId, eventId },
        },
      })),
    ...[...had]
      .filter((granted) => !has.has(granted))
      .map((granted) => ({ Delete: { TableName: tableName(), Key: keys.accessGrant(granted, typeId) } })),
  ];
  try {
    await commit(eventId, [
      eventAtVersion(change),
      typeAction,
      ...grantActions,
      historyPut(change),
      ...stock.map((action) => labelled(TYPE_MOVED, action)),
    ]);
  } catch (error) {
    // The type's `sold` or its stock moved between the read and the write: a sale or a hold, so the caller reads again.
    if (error instanceof TransactionCancelled && error.conditionFailed(TYPE_MOVED))
      throw new Conflict(`Ticket type ${typeId} sold meanwhile: read it again and retry.`, 'stale_version');
    throw error;
  }
}
