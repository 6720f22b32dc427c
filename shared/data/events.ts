import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '../clock.ts';
import {
  DEFAULT_LISTING,
  isValidTimeZone,
  type AccessGrant,
  type CreatedEvent,
  type Event,
  type NewEvent,
  type Team,
  type TicketType,
} from '../domain/event.ts';
import { NotFound, ValidationError } from '../errors.ts';
import { batchGet, db, tableName, transactWrite, storedAs } from './client.ts';
import { allocateIds } from './counters.ts';
import { keys } from './keys.ts';
import { keyCondition } from './key-conditions.ts';
import { countPublishedEvent, eventSearchItems } from './portal-event-index.ts';
import { emptyShard, STATS_SHARDS } from './ticket-stats.ts';

/**
 * Events: the partition `EVENT#<id>` holds the event item, its ticket types, teams, the
 * grants of other events' access packages into it, its statistics shards and waivers.
 * Each is read by its own key (the event record, a team: one GetItem each), never the
 * whole partition. Ticket types are also found by id through GSI1. Events are created by
 * the seed and the tests; their admin routes are not in the spec.
 */
export async function getEvent(id: number): Promise<Event> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.event(id) }));
  if (!Item) throw new NotFound('Event', id);
  return storedAs<Event>(Item);
}

/** A team of an event, or undefined when the event has no such team. */
export async function findTeam(eventId: number, teamId: number): Promise<Team | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.team(eventId, teamId) }));
  return Item ? storedAs<Team>(Item) : undefined;
}

/** A ticket type by id (an index lookup), or undefined. */
export async function findTicketType(id: number): Promise<TicketType | undefined> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.ticketTypeById(id), { equals: keys.ticketTypeSort }),
      Limit: 1,
    }),
  );
  return Items?.[0] ? storedAs<TicketType>(Items[0]) : undefined;
}

/** The ticket types an event can hold (createEvent allows at most this many). */
export const MAX_TICKET_TYPES = 50;

/** The wave times an event can hold (createEvent allows at most this many). */
export const MAX_WAVE_TIMES = 50;

/**
 * The other events one ticket type (an access package) may grant entry to. Every ticket
 * change moves one list entry and one statistics counter per granted event inside the
 * ticket's one transaction (100 actions at most), and a transfer moves them for the old
 * and the new ticket: 20 leaves room for the ticket's own items, history, bib, barcode
 * and idempotency record (a transfer passes 100 actions at 45; test/integration/
 * ticket-transfer.test.ts walks the widest package through check-in, transfer and delete).
 */
export const MAX_GRANTS_PER_TYPE = 20;

/** An event's ticket types in id order, with their kept `sold` counts: one bounded Query. */
export async function listTicketTypes(eventId: number): Promise<TicketType[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.eventItems(eventId), { beginsWith: keys.ticketTypePrefix }),
      Limit: MAX_TICKET_TYPES,
    }),
  );
  return (Items ?? []).map((item) => storedAs<TicketType>(item));
}

/**
 * The ticket types of other events whose access packages grant entry to the event (its
 * `GRANT#` items, written with those events; grants never change), or undefined when more
 * than `atMost`: one bounded Query.
 */
export async function grantsInto(eventId: number, atMost: number): Promise<AccessGrant[] | undefined> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.eventItems(eventId), { beginsWith: keys.accessGrantPrefix }),
      Limit: atMost + 1,
    }),
  );
  if (Items.length > atMost) return undefined;
  return Items.map((item) => ({ into: eventId, eventId: Number(item.eventId), typeId: Number(item.typeId) }));
}

/** The grants into each of the events (grantsInto, at most `atMost` each, at once), or undefined when one has more. */
export async function grantsIntoAll(eventIds: readonly number[], atMost: number): Promise<AccessGrant[] | undefined> {
  const each = await Promise.all([...new Set(eventIds)].map((eventId) => grantsInto(eventId, atMost)));
  return each.some((grants) => !grants) ? undefined : each.flatMap((grants) => grants!);
}

/** Event titles by id (for `checkInInfo`); unknown ids are absent. */
export async function eventTitles(ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  const items = await batchGet(
    unique.map((id) => keys.event(id)),
    { projection: 'id, title' },
  );
  return new Map(items.flatMap((item) => (item ? [[Number(item.id), String(item.title)] as const] : [])));
}

/** Events' IANA time zones by id (event-local times are answered in them); unknown ids are absent. */
export async function eventTimeZones(ids: number[]): Promise<Map<number, string>> {
  const items = await batchGet(
    [...new Set(ids)].map((id) => keys.event(id)),
    { projection: 'id, #tz', names: { '#tz': 'timezone' } },
  );
  return new Map(items.flatMap((item) => (item ? [[Number(item.id), String(item.timezone)] as const] : [])));
}

/** An ISO-8601 instant as the table keeps it: UTC with milliseconds, so instants sort as strings. */
function utcInstant(value: string, field: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time))
    throw new ValidationError(`${field} must be an ISO-8601 date-time.`, [
      { path: field, message: 'Not an ISO-8601 date-time.' },
    ]);
  return new Date(time).toISOString();
}
const optionalInstant = (value: string | null | undefined, field: string) => (value ? utcInstant(value, field) : null);

/**
 * Creates an event with its ticket types, teams, wave times, questions and empty
 * statistics shards in one transaction. A type's `grants` name the other events it also
 * admits to. A published event carries the sparse GSI1 `PUBLISHED_EVENTS` entry (the
 * portal's list); listing fields not given take DEFAULT_LISTING (unpublished).
 */
export async function createEvent(input: NewEvent): Promise<CreatedEvent> {
  if (!isValidTimeZone(input.timezone)) throw new ValidationError(`Unknown time zone "${input.timezone}".`);
  if (input.ticketTypes.length > MAX_TICKET_TYPES)
    throw new ValidationError(`An event holds at most ${MAX_TICKET_TYPES} ticket types.`);
  const waves = input.waveTimes ?? [];
  if (waves.length > MAX_WAVE_TIMES) throw new ValidationError(`An event holds at most ${MAX_WAVE_TIMES} wave times.`);
  if (input.ticketTypes.some((type) => new Set(type.grants).size > MAX_GRANTS_PER_TYPE)) {
    throw new ValidationError(`A ticket type grants entry to at most ${MAX_GRANTS_PER_TYPE} other events.`);
  }
  const questions = input.questions ?? [];
  const optionCount = questions.reduce((sum, question) => sum + (question.options?.length ?? 0), 0);
  const [eventId, firstType, firstTeam, firstQuestion, firstOption, firstWave] = await Promise.all([
    allocateIds('EVENT'),
    allocateIds('TICKET_TYPE', Math.max(1, input.ticketTypes.length)),
    allocateIds('TEAM', Math.max(1, input.teams?.length ?? 0)),
    allocateIds('QUESTION', Math.max(1, questions.length)),
    allocateIds('ANSWER_OPTION', Math.max(1, optionCount)),
    allocateIds('WAVE', Math.max(1, waves.length)),
  ]);
  let optionId = firstOption;
  const { ticketTypes: _types, teams: _teams, waveTimes: _waves, questions: _questions, ...listing } = input;
  const event: CreatedEvent = {
    ...DEFAULT_LISTING,
    ...listing,
    id: eventId,
    title: input.title,
    timezone: input.timezone,
    startsAt: utcInstant(input.startsAt, 'startsAt'),
    cutOff: optionalInstant(input.cutOff, 'cutOff'),
    onSaleDate: optionalInstant(input.onSaleDate, 'onSaleDate'),
    publishedDate: optionalInstant(input.publishedDate, 'publishedDate'),
    capacity: input.ticketTypes.reduce((sum, type) => sum + type.total, 0),
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
      description: type.description ?? '',
      ordering: type.ordering ?? t,
      sold: 0,
      total: type.total,
      grants: [...new Set(type.grants ?? [])].filter((granted) => granted !== eventId),
    })),
    teams: (input.teams ?? []).map((team, t) => ({ id: firstTeam + t, eventId, name: team.name })),
    waveTimes: waves.map((wave, w) => ({
      id: firstWave + w,
      eventId,
      name: wave.name,
      startTime: utcInstant(wave.startTime, `waveTimes.${w}.startTime`),
      capacity: wave.capacity,
    })),
    created: now().toISOString(),
  };
  const { ticketTypes, teams, waveTimes, ...eventFields } = event;
  const published = event.published ? keys.publishedEventIndexes(event.startsAt, eventId) : {};
  const put = (Item: Record<string, unknown>) => ({
    Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' },
  });
  // The portal's search entries and count of published events (portal-event-index.ts).
  const listed = event.published ? [...eventSearchItems(event).map((Item) => put(Item)), countPublishedEvent()] : [];
  await transactWrite([
    put({ ...keys.event(eventId), ...published, entity: 'Event', ...eventFields }),
    ...ticketTypes.map((type) =>
      put({ ...keys.ticketType(eventId, type.id), ...keys.ticketTypeIndexes(type.id), entity: 'TicketType', ...type }),
    ),
    ...ticketTypes.flatMap((type) =>
      type.grants.map((granted) => ({
        Put: {
          TableName: tableName(),
          Item: { ...keys.accessGrant(granted, type.id), entity: 'AccessGrant', typeId: type.id, eventId },
        },
      })),
    ),
    ...teams.map((team) => put({ ...keys.team(eventId, team.id), entity: 'Team', ...team })),
    ...waveTimes.map((wave) => put({ ...keys.waveTime(eventId, wave.id), entity: 'WaveTime', ...wave })),
    ...Array.from({ length: STATS_SHARDS }, (_, shard) => put(emptyShard(eventId, shard))),
    // Its tickets' purchase counts (its own and its types') start with it, so they hold every one (purchase-counts.ts).
    put({ ...keys.purchaseCountsKept({ eventId }), entity: 'PurchaseCountsKept' }),
    put({ ...keys.typePurchaseCountsKept(eventId), entity: 'PurchaseCountsKept' }),
    // Its team lists' spans too (list-positions.ts).
    put({ ...keys.positionSpansKept(eventId), entity: 'PositionSpansKept' }),
    // And its update-time sync (ticket-records.ts) and its types' purchase lists (ticket-list-entries.ts).
    put({ ...keys.eventUpdatesKept(eventId), entity: 'EventUpdatesKept' }),
    put({ ...keys.typePurchasesKept(eventId), entity: 'TypePurchasesKept' }),
    ...listed,
  ]);
  return event;
}
