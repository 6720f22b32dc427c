import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type AccessGrant, type Event, type Team, type TicketType, MAX_TICKET_TYPES } from '../domain/event.ts';
import { NotFound } from '../../errors.ts';
import { batchGet, db, tableName } from '../../data/client.ts';
import { eventFromItem, teamFromItem, ticketTypeFromItem } from './event-items.ts';
import { keys } from '../../data/keys.ts';
import { keyCondition } from '../../data/key-conditions.ts';

/**
 * Events: the partition `EVENT#<id>` holds the event item, its ticket types, teams, the
 * grants of other events' access packages into it, its statistics shards and waivers.
 * Each is read by its own key (the event record, a team: one GetItem each), never the
 * whole partition. Ticket types are also found by id through GSI1. Events are created by
 * the events routes (ours, not the spec's: shared/events/use-cases/), the seed and the tests.
 */
export async function getEvent(id: number): Promise<Event> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.event(id) }));
  if (!Item) throw new NotFound('Event', id);
  return eventFromItem(Item);
}

/** A team of an event, or undefined when the event has no such team. */
export async function findTeam(eventId: number, teamId: number): Promise<Team | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.team(eventId, teamId) }));
  return Item ? teamFromItem(Item) : undefined;
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
  return Items?.[0] ? ticketTypeFromItem(Items[0]) : undefined;
}

/** An event's ticket types in id order, with their kept `sold` counts: one bounded Query. */
export async function listTicketTypes(eventId: number): Promise<TicketType[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.eventItems(eventId), { beginsWith: keys.ticketTypePrefix }),
      Limit: MAX_TICKET_TYPES,
    }),
  );
  return (Items ?? []).map(ticketTypeFromItem);
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
