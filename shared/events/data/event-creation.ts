import { now } from '../../clock.ts';
import {
  isValidTimeZone,
  DEFAULT_LISTING,
  type CreatedEvent,
  type NewEvent,
  MAX_GRANTS_PER_TYPE,
  MAX_TICKET_TYPES,
  MAX_WAVE_TIMES,
} from '../domain/event.ts';
import { creationShards, stockShardsFor } from '../../selling/domain/reservation.ts';
import { ValidationError } from '../../errors.ts';
import { MAX_TRANSACTION_ITEMS, tableName, transactWrite } from '../../data/client.ts';
import { allocateIds } from '../../data/counters.ts';
import { eventItem, teamItem, ticketTypeItem, waveTimeItem } from './event-items.ts';
import { keys } from '../../data/keys.ts';
import { countNewEvent } from './event-counts.ts';
import { type EventListing, historyPut } from './event-admin-writes.ts';
import { emptyShard, STATS_SHARDS } from '../../tickets/data/stats-shards.ts';
import { waiverItems } from './waivers.ts';
import { versionHash } from '../domain/waivers.ts';
import { newStockPuts } from '../../selling/data/stock.ts';

/** An event's creation (events.ts re-exports it): its checks, its ids, the items it writes. */

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
 * Creates an event with its ticket types and their stock, teams, wave times, questions and
 * empty statistics shards in one transaction, so a type is never without its stock (it
 * could not be sold). A type's `grants` name the other events it also admits to. A
 * published event carries the sparse GSI1 `PUBLISHED_EVENTS` entry (the portal's list);
 * listing fields not given take DEFAULT_LISTING (unpublished). Given who creates it
 * (`POST /events`), with its history's first entry, `created`, at version 1: the change its
 * `event.created` webhook message is read from (webhooks/use-cases/event-changes.ts).
 *
 * The stock's shards take what the transaction's 100 actions leave: 50 types of 8 shards
 * (400 items) cannot fit beside the rest, so the shard count is lowered at creation
 * (selling/domain/reservation.ts `creationShards`: each type at least one, the rest shared out up
 * to each type's `stockShardsFor`) and a type keeps the count it started with. A creation
 * where even one shard a type does not fit is a 400 naming `body.ticketTypes` (the route's
 * body bound, events/domain/event-bodies.ts `MAX_CREATION_ITEMS`, counts one stock item a type).
 * `listing`: what the portal's lists add (shared/lists/portal.ts `eventListing`).
 */
export async function createEvent(
  input: NewEvent,
  listing: EventListing,
  creator?: { by: number; at: string },
): Promise<CreatedEvent> {
  const event = buildEvent(input, await allocateEventIds(input));
  const others = eventWrites(event, listing).length + (creator ? 1 : 0);
  const shards = creationShards(
    event.ticketTypes.map((type) => type.total),
    MAX_TRANSACTION_ITEMS - others,
  );
  if (!shards)
    throw new ValidationError(
      `One creation is one transaction of at most ${MAX_TRANSACTION_ITEMS} writes, its types' stock included: create fewer ticket types with it and add the rest afterwards.`,
      [{ path: 'body.ticketTypes', message: 'too many to create with their stock in one transaction' }],
    );
  event.ticketTypes = event.ticketTypes.map((type, t) => ({ ...type, stockShards: shards[t]! }));
  const history = creator
    ? [historyPut({ after: { ...event, version: 1 }, changes: {}, action: 'created', ...creator })]
    : [];
  await transactWrite([...eventWrites(event, listing), ...event.ticketTypes.flatMap(newStockPuts), ...history]);
  return event;
}

/** The ids one event takes from each sequence (the first of each run). */
interface EventIds {
  event: number;
  type: number;
  team: number;
  question: number;
  option: number;
  wave: number;
  waiver: number;
}

/** Checks the input, then allocates its ids: one update per sequence. */
async function allocateEventIds(input: NewEvent): Promise<EventIds> {
  checkNewEvent(input);
  const need: EventIds = {
    event: 1,
    type: Math.max(1, input.ticketTypes.length),
    team: Math.max(1, input.teams?.length ?? 0),
    question: Math.max(1, input.questions?.length ?? 0),
    option: Math.max(
      1,
      (input.questions ?? []).reduce((sum, question) => sum + (question.options?.length ?? 0), 0),
    ),
    wave: Math.max(1, input.waveTimes?.length ?? 0),
    waiver: Math.max(1, input.waivers?.length ?? 0),
  };
  const sequences = {
    event: 'EVENT',
    type: 'TICKET_TYPE',
    team: 'TEAM',
    question: 'QUESTION',
    option: 'ANSWER_OPTION',
    wave: 'WAVE',
    waiver: 'WAIVER',
  } as const;
  const names = Object.keys(sequences) as (keyof EventIds)[];
  const firsts = await Promise.all(names.map((name) => allocateIds(sequences[name], need[name])));
  const ids = { ...need };
  for (const [i, name] of names.entries()) ids[name] = firsts[i]!;
  return ids;
}

function checkNewEvent(input: NewEvent): void {
  if (!isValidTimeZone(input.timezone)) throw new ValidationError(`Unknown time zone "${input.timezone}".`);
  if (input.ticketTypes.length > MAX_TICKET_TYPES)
    throw new ValidationError(`An event holds at most ${MAX_TICKET_TYPES} ticket types.`);
  const waves = input.waveTimes ?? [];
  if (waves.length > MAX_WAVE_TIMES) throw new ValidationError(`An event holds at most ${MAX_WAVE_TIMES} wave times.`);
  if (input.ticketTypes.some((type) => new Set(type.grants).size > MAX_GRANTS_PER_TYPE)) {
    throw new ValidationError(`A ticket type grants entry to at most ${MAX_GRANTS_PER_TYPE} other events.`);
  }
}

/** The event as it is stored, from its input and its ids. */
function buildEvent(input: NewEvent, ids: EventIds): CreatedEvent {
  const [eventId, firstType, firstTeam, firstQuestion, firstWave] = [
    ids.event,
    ids.type,
    ids.team,
    ids.question,
    ids.wave,
  ];
  const questions = input.questions ?? [];
  const waves = input.waveTimes ?? [];
  let optionId = ids.option;
  const {
    ticketTypes: _types,
    teams: _teams,
    waveTimes: _waves,
    questions: _questions,
    waivers: _waivers,
    ...listing
  } = input;
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
      ...(type.tax ? { tax: type.tax } : {}),
      description: type.description ?? '',
      ordering: type.ordering ?? t,
      total: type.total,
      grants: [...new Set(type.grants ?? [])].filter((granted) => granted !== eventId),
      // Its full count; a creation lowers it where its one transaction runs short (createEvent).
      stockShards: stockShardsFor(type.total),
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
  event.waivers = (input.waivers ?? []).map((waiver, w) => {
    const type = waiver.ticketTypeIndex === undefined ? undefined : event.ticketTypes[waiver.ticketTypeIndex];
    if (waiver.ticketTypeIndex !== undefined && !type)
      throw new ValidationError(`waivers.${w}.ticketTypeIndex names no ticket type of the event.`, [
        { path: `body.waivers.${w}.ticketTypeIndex`, message: 'names no ticket type of the event' },
      ]);
    return {
      id: ids.waiver + w,
      eventId,
      ticketTypeId: type?.id ?? null,
      title: waiver.title,
      kind: waiver.kind ?? 'standard',
      versionHash: versionHash(waiver.text),
      versionPublished: event.created,
      created: event.created,
      text: waiver.text,
    };
  });
  return event;
}

/** Every item a new event writes, as the conditional Puts (and the published count's update) of its one transaction. */
function eventWrites(event: CreatedEvent, listing: EventListing) {
  const eventId = event.id;
  const { ticketTypes, teams, waveTimes, waivers = [], ...eventFields } = event;
  const put = (Item: Record<string, unknown>) => ({
    Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' },
  });
  // The portal's search entries and count of published events, built first (too much text to index is a 400 here).
  const listed = listing.created(event);
  return [
    // The administrators' lists (shared/lists/events.ts) and the version its edits are conditional on (event-admin-writes.ts).
    put(eventItem({ ...eventFields, version: 1 })),
    countNewEvent(event),
    ...ticketTypes.map((type) => put(ticketTypeItem(type))),
    ...ticketTypes.flatMap((type) =>
      type.grants.map((granted) => ({
        Put: {
          TableName: tableName(),
          Item: { ...keys.accessGrant(granted, type.id), entity: 'AccessGrant', typeId: type.id, eventId },
        },
      })),
    ),
    ...teams.map((team) => put(teamItem(team))),
    ...waveTimes.map((wave) => put(waveTimeItem(wave))),
    ...waivers.flatMap(({ text, ...waiver }) => {
      const items = waiverItems(waiver, text ?? '');
      return [put(items.waiver), put(items.version)];
    }),
    ...Array.from({ length: STATS_SHARDS }, (_, shard) => put(emptyShard(eventId, shard))),
    ...listed,
  ];
}
