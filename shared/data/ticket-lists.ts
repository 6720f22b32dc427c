import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../domain/paging.ts';
import type { TicketRecord } from '../domain/ticket.ts';
import { db, queryPages, tableName } from './client.ts';
import { keys } from './keys.ts';
import { fromTicketItem } from './ticket-records.ts';
import { countListed } from './ticket-stats.ts';

export interface TicketListQuery {
  events: number[];
  accessEvents: number[];
  teams?: number[];
  ticketTypes?: number[];
  excludeProcessStates?: number[];
  limit: number;
  offset: number;
}

/** Access packages granting entry to one event: at most this many types are read. */
const MAX_GRANTS = 100;

/** Reads a list partition in id order until it is exhausted or `enough` tickets matched (undefined: all of it). */
const queryPartition = (
  index: 'GSI1' | 'GSI2',
  partition: string,
  filter: { expression?: string; names: Record<string, string>; values: Record<string, unknown> },
  enough: number | undefined,
) =>
  queryPages(
    {
      TableName: tableName(),
      IndexName: index,
      KeyConditionExpression: `${index}PK = :pk`,
      ...(filter.expression ? { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names } : {}),
      ExpressionAttributeValues: { ':pk': partition, ...filter.values },
    },
    enough,
  );

function filterOf(query: TicketListQuery) {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const inList = (attribute: string, name: string, list: number[] | undefined, negate = false) => {
    if (!list?.length) return;
    names[`#${name}`] = attribute;
    const placeholders = list.map((value, i) => {
      values[`:${name}${i}`] = value;
      return `:${name}${i}`;
    });
    conditions.push(`${negate ? 'NOT ' : ''}#${name} IN (${placeholders.join(', ')})`);
  };
  inList('teamKey', 'team', query.teams);
  inList('typeId', 'type', query.ticketTypes);
  inList('processState', 'state', query.excludeProcessStates, true);
  return { expression: conditions.length ? conditions.join(' AND ') : undefined, names, values };
}

/**
 * The tickets of `GET /tickets`, bounded by events: the tickets of each event of
 * `events` (GSI1), and for `accessEvents` also those of every access-package type
 * granting it (the event's GRANT# items, then GSI2 per type). Teams, types and process
 * states are filters on those partitions. Ordered by id.
 *
 * Without a filter a page reads the first offset+limit tickets of each partition, and
 * `totalCount` comes from the events' kept `listed` counts (also with only
 * `exclude_process_states`, which those counts are kept by). A filter makes DynamoDB read
 * past the `Limit`, and `teams`, `ticket_types` and `accessEvents` have no counts yet, so
 * those read the named partitions to the end: cost proportional to the events' size.
 */
export async function listTicketRecords(query: TicketListQuery): Promise<Page<TicketRecord>> {
  const filter = filterOf(query);
  const counted = !query.accessEvents.length && !query.teams?.length && !query.ticketTypes?.length;
  const enough = counted ? query.offset + query.limit : undefined;
  const total = counted ? countListed(query.events, query.excludeProcessStates) : undefined;
  total?.catch(() => undefined); // awaited below; handled here in case a Query fails first
  const partitions: Promise<Record<string, unknown>[]>[] = [];
  for (const eventId of new Set([...query.events, ...query.accessEvents])) {
    partitions.push(queryPartition('GSI1', keys.eventTicketsIndex(eventId), filter, enough));
  }
  for (const eventId of new Set(query.accessEvents)) {
    const grants = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :grant)',
        ExpressionAttributeValues: { ':pk': keys.eventPartition(eventId), ':grant': keys.accessGrantPrefix },
        Limit: MAX_GRANTS,
      }),
    );
    for (const grant of grants.Items ?? []) partitions.push(queryPartition('GSI2', keys.typeTicketsIndex(Number(grant.typeId)), filter, enough));
  }
  const byId = new Map<number, TicketRecord>();
  for (const items of await Promise.all(partitions)) for (const item of items) byId.set(Number(item.id), fromTicketItem(item));
  const matches = [...byId.values()].sort((a, b) => a.id - b.id);
  return {
    totalCount: total ? await total : matches.length,
    limit: query.limit,
    offset: query.offset,
    items: matches.slice(query.offset, query.offset + query.limit),
  };
}
