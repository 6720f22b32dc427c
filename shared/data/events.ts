import { BatchGetCommand, type BatchGetCommandOutput, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '../clock.ts';
import type { Event, NewEvent, Team, TicketType } from '../domain/event.ts';
import { NotFound, ValidationError } from '../errors.ts';
import { isValidTimeZone } from '../domain/event.ts';
import { db, queryPages, tableName, transactWrite } from './client.ts';
import { allocateIds } from './counters.ts';
import { keys } from './keys.ts';
import { emptyShard, STATS_SHARDS } from './ticket-stats.ts';

/**
 * Events: one partition `EVENT#<id>` holds the event item, its ticket types, teams, the
 * grants of other events' access packages into it, and its statistics shards, so
 * `getEvent` is one Query. Ticket types are also found by id through GSI1.
 * (Events are created by the seed and tests; their admin routes belong to a later issue.)
 */
const strip = (item: Record<string, unknown>) => {
  const { PK, SK, GSI1PK, GSI1SK, entity, ...rest } = item;
  return rest;
};

export async function getEvent(id: number): Promise<Event> {
  const items = await queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.eventPartition(id) },
  });
  const eventItem = items.find((item) => item.SK === 'EVENT');
  if (!eventItem) throw new NotFound('Event', id);
  const of = (prefix: string) => items.filter((item) => String(item.SK).startsWith(prefix)).map(strip);
  return {
    ...(strip(eventItem) as Omit<Event, 'ticketTypes' | 'teams' | 'grantedBy'>),
    ticketTypes: of('TICKET_TYPE#') as unknown as TicketType[],
    teams: of('TEAM#') as unknown as Team[],
    grantedBy: of('GRANT#').map((grant) => Number(grant.typeId)),
  };
}

/** A ticket type by id (GSI1), or undefined. */
export async function findTicketType(id: number): Promise<TicketType | undefined> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK = :sk',
      ExpressionAttributeValues: { ':pk': keys.ticketTypeIndex(id).GSI1PK, ':sk': keys.ticketTypeIndex(id).GSI1SK },
    }),
  );
  return Items?.[0] ? (strip(Items[0]) as unknown as TicketType) : undefined;
}

/** Event titles by id, in one BatchGetItem (for `checkInInfo`); unknown ids are absent. */
export async function eventTitles(ids: number[]): Promise<Map<number, string>> {
  const titles = new Map<number, string>();
  let pending: Record<string, unknown>[] | undefined = [...new Set(ids)].map((id) => keys.event(id));
  while (pending?.length) {
    const { Responses, UnprocessedKeys }: BatchGetCommandOutput = await db.send(
      new BatchGetCommand({
        RequestItems: { [tableName()]: { Keys: pending.splice(0, 100), ProjectionExpression: 'id, title' } },
      }),
    );
    for (const item of Responses?.[tableName()] ?? []) titles.set(Number(item.id), String(item.title));
    pending = [...pending, ...(UnprocessedKeys?.[tableName()]?.Keys ?? [])];
  }
  return titles;
}

/**
 * Creates an event with its ticket types, teams, questions and empty statistics shards in
 * one transaction. A type's `grants` must name existing events (checked by the grant items' puts).
 */
export async function createEvent(input: NewEvent): Promise<Event> {
  if (!isValidTimeZone(input.timezone)) throw new ValidationError(`Unknown time zone "${input.timezone}".`);
  const questions = input.questions ?? [];
  const optionCount = questions.reduce((sum, question) => sum + (question.options?.length ?? 0), 0);
  const [eventId, firstType, firstTeam, firstQuestion, firstOption] = await Promise.all([
    allocateIds('EVENT'),
    allocateIds('TICKET_TYPE', Math.max(1, input.ticketTypes.length)),
    allocateIds('TEAM', Math.max(1, input.teams?.length ?? 0)),
    allocateIds('QUESTION', Math.max(1, questions.length)),
    allocateIds('ANSWER_OPTION', Math.max(1, optionCount)),
  ]);
  let optionId = firstOption;
  const stamp = now().toISOString();
  const event: Event = {
    id: eventId,
    title: input.title,
    timezone: input.timezone,
    startsAt: input.startsAt,
    questions: questions.map((question, q) => ({
      id: firstQuestion + q,
      text: question.text,
      required: question.required ?? false,
      options: (question.options ?? []).map((option) => ({ id: optionId++, ...option })),
    })),
    ticketTypes: input.ticketTypes.map((type, t) => ({
      id: firstType + t,
      eventId,
      name: type.name,
      price: type.price,
      sold: 0,
      total: type.total,
      grants: [...new Set(type.grants ?? [])].filter((granted) => granted !== eventId),
    })),
    teams: (input.teams ?? []).map((team, t) => ({ id: firstTeam + t, eventId, name: team.name })),
    grantedBy: [],
    created: stamp,
  };
  const { ticketTypes, teams, grantedBy, ...eventFields } = event;
  const put = (Item: Record<string, unknown>) => ({ Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' } });
  await transactWrite([
    put({ ...keys.event(eventId), entity: 'Event', ...eventFields }),
    ...ticketTypes.map((type) => put({ ...keys.ticketType(eventId, type.id), ...keys.ticketTypeIndex(type.id), entity: 'TicketType', ...type })),
    ...ticketTypes.flatMap((type) =>
      type.grants.map((granted) => ({
        Put: {
          TableName: tableName(),
          Item: { ...keys.accessGrant(granted, type.id), entity: 'AccessGrant', typeId: type.id, eventId },
        },
      })),
    ),
    ...teams.map((team) => put({ ...keys.team(eventId, team.id), entity: 'Team', ...team })),
    ...Array.from({ length: STATS_SHARDS }, (_, shard) => put(emptyShard(eventId, shard))),
  ]);
  return event;
}
