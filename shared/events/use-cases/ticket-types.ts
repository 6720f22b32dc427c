import { now } from '../../clock.ts';
import { allocateIds } from '../../data/counters.ts';
import {
  newStockPuts,
  readStock,
  stockDeleteActions,
  totalChangeActions,
  typeWithSold,
  type CountedShard,
} from '../../selling/data/stock.ts';
import { stockShardsFor } from '../../selling/domain/reservation.ts';
import { MAX_TICKET_TYPES, saleCurrency, type Event, type TicketType } from '../domain/event.ts';
import { listTicketTypes } from '../data/events.ts';
import { typeHasTickets } from '../data/event-admin-reads.ts';
import { commitTypeChange, type HistoryAction } from '../data/event-admin-writes.ts';
import { checkPrices, checkTypeDeletable, checkTypeTotal, type FieldChanges } from '../domain/event-admin.ts';
import { toTicketTypeView } from '../domain/event-resource.ts';
import { Conflict, NotFound } from '../../errors.ts';
import type { NewTicketTypeBody, TicketTypePatchBody } from '../domain/event-bodies.ts';
import { checkGrants } from './create-event.ts';
import { assertVersion } from './edit-events.ts';
import { eventFor, type Caller } from './event-reads.ts';

/**
 * The ticket-type routes: each change one transaction with the event's version, `capacity`
 * (the portal's `inventory.total`: the sum of the types' totals) and history
 * (event-admin-writes.ts `commitTypeChange`).
 */

async function typeOf(event: Event, typeId: number): Promise<{ type: TicketType; types: TicketType[] }> {
  const types = await listTicketTypes(event.id);
  const type = types.find((one) => one.id === typeId);
  if (!type) throw new NotFound('Ticket type', typeId);
  return { type, types };
}

async function commit(
  caller: Caller,
  event: Event,
  action: HistoryAction,
  changes: FieldChanges,
  capacityDelta: number,
  type: { before?: TicketType; after?: TicketType },
  stock: Record<string, unknown>[] = [],
) {
  const at = now().toISOString();
  const after: Event = {
    ...event,
    capacity: (event.capacity ?? 0) + capacityDelta,
    version: (event.version ?? 1) + 1,
    updated: at,
    updatedBy: caller.id,
  };
  await commitTypeChange({ before: event, after, changes, action, by: caller.id, at }, type, stock);
}

const sum = (shards: readonly CountedShard[], part: 'held' | 'sold') =>
  shards.reduce((total, shard) => total + shard[part], 0);

/**
 * The stock moves of a new `total` (its shards read once: their `sold` summed is the type's): below what is sold is
 * the existing 409 `total_below_sold`, below what is sold and held the same with both; a fall takes from the shards'
 * `left`, each conditional, so a sale between the read and the write fails it rather than oversell.
 */
async function stockForTotal(type: TicketType, total: number): Promise<Record<string, unknown>[]> {
  const shards = await readStock(type);
  const [sold, held] = [sum(shards, 'sold'), sum(shards, 'held')];
  checkTypeTotal({ id: type.id, sold }, total);
  if (total === type.total) return [];
  const actions = totalChangeActions(type.id, shards, total - type.total);
  if (total < sold + held || !actions)
    throw new Conflict(
      `Ticket type ${type.id} has sold ${sold} and holds ${held} in reservations: its total cannot be ${total}.`,
      'total_below_sold',
      { sold, held },
    );
  return actions;
}

export async function createTicketTypeFor(caller: Caller, eventId: number, body: NewTicketTypeBody) {
  const event = await eventFor(caller, eventId);
  const types = await listTicketTypes(eventId);
  if (types.length >= MAX_TICKET_TYPES)
    throw new Conflict(`An event holds at most ${MAX_TICKET_TYPES} ticket types.`, 'too_many_ticket_types');
  checkPrices([{ path: 'body.price', price: body.price }], saleCurrency(event));
  const grants = [...new Set(body.grants)].filter((granted) => granted !== eventId);
  await checkGrants(caller, [{ path: 'body.grants', eventIds: grants }]);
  const id = await allocateIds('TICKET_TYPE');
  const type: TicketType = {
    id,
    eventId,
    name: body.name,
    price: body.price,
    ...(body.tax ? { tax: body.tax } : {}),
    description: body.description,
    ordering: body.ordering ?? types.length,
    total: body.total,
    grants,
    stockShards: stockShardsFor(body.total),
  };
  const stock = newStockPuts(type);
  await commit(
    caller,
    event,
    'type_created',
    { [`ticketTypes.${id}`]: { from: null, to: type } },
    type.total,
    { after: type },
    stock,
  );
  return toTicketTypeView({ ...type, sold: 0 });
}

export async function updateTicketTypeFor(caller: Caller, eventId: number, typeId: number, body: TicketTypePatchBody) {
  const event = await eventFor(caller, eventId);
  const { type } = await typeOf(event, typeId);
  assertVersion(event.version, body.version, eventId);
  const { version: _version, ...fields } = body;
  if (fields.price !== undefined) checkPrices([{ path: 'body.price', price: fields.price }], saleCurrency(event));
  const stock = fields.total === undefined ? [] : await stockForTotal(type, fields.total);
  const grants = fields.grants === undefined ? undefined : [...new Set(fields.grants)].filter((id) => id !== eventId);
  if (grants !== undefined && grants.join() !== type.grants.join()) {
    // Issued tickets carry their package's access entries, so a package changes only before it sells.
    if (sum(await readStock(type), 'sold') > 0 || (await typeHasTickets(typeId)))
      throw new Conflict(`Ticket type ${typeId} has tickets: its grants no longer change.`, 'type_has_tickets');
    await checkGrants(caller, [{ path: 'body.grants', eventIds: grants }]);
  }
  const after: TicketType = { ...type, ...fields, ...(grants === undefined ? {} : { grants }) };
  const changes: FieldChanges = {};
  for (const field of ['name', 'description', 'ordering', 'price', 'tax', 'total', 'grants'] as const)
    if (JSON.stringify(after[field] ?? null) !== JSON.stringify(type[field] ?? null))
      changes[`ticketTypes.${typeId}.${field}`] = { from: type[field] ?? null, to: after[field] ?? null };
  if (Object.keys(changes).length)
    await commit(caller, event, 'type_updated', changes, after.total - type.total, { before: type, after }, stock);
  return toTicketTypeView(await typeWithSold(after));
}

export async function deleteTicketTypeFor(caller: Caller, eventId: number, typeId: number) {
  const event = await eventFor(caller, eventId);
  const { type, types } = await typeOf(event, typeId);
  const [shards, hasTickets] = await Promise.all([readStock(type), typeHasTickets(typeId)]);
  checkTypeDeletable({ id: typeId, sold: sum(shards, 'sold') }, hasTickets);
  // A published event keeps a type on sale (an event is published with one at least).
  if (event.published && types.length === 1)
    throw new Conflict('A published event keeps at least one ticket type: unpublish it first.', 'last_ticket_type');
  await commit(
    caller,
    event,
    'type_deleted',
    { [`ticketTypes.${typeId}`]: { from: type, to: null } },
    -type.total,
    { before: type },
    stockDeleteActions(typeId, shards),
  );
  return { id: typeId };
}
