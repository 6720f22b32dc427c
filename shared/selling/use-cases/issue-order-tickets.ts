import { now } from '../../clock.ts';
import { allocateIds } from '../../data/counters.ts';
import { findTicketType } from '../../events/data/events.ts';
import { issuedTicketsActions } from '../data/orders.ts';
import { orderEntriesCaughtUp } from '../data/order-list-entries.ts';
import { soldFromHoldAction } from '../data/stock.ts';
import type { TicketType } from '../../events/domain/event.ts';
import type { Order } from '../domain/order.ts';
import { attendeeTakes, type StockTake } from '../domain/reservation.ts';
import { addSums, NO_SALES, type SaleSums, ticketSums } from '../domain/sale-prices.ts';
import type { Actor } from '../../tickets/domain/ticket-history.ts';
import type { TicketRecord } from '../../tickets/domain/ticket.ts';
import { ValidationError } from '../../errors.ts';
import { commitTicketChanges, type ExtraAction, type TicketChange, ticketChangeActions } from '../../lists/writes.ts';
import { type NewTicket, newTicketChange, TICKET_SEQUENCE } from '../../tickets/use-cases/create-ticket.ts';
import { soldOut } from '../../tickets/use-cases/ticket-stock.ts';

/** DynamoDB's most actions in one TransactWriteItems. */
const MAX_ACTIONS = 100;

/** The order left issuing meanwhile: another call issued first or activated it, or an undo or a cancel started. */
export class OrderLeftIssuing extends Error {
  constructor(readonly orderId: number) {
    super(`Order ${orderId} is no longer issuing the tickets this call read.`);
  }
}

/** One attendee's ticket as the order sells it (the order, its customer and the hold's shard are the order's). */
export type OrderAttendee = Omit<NewTicket, 'orderId' | 'customerId' | 'purchasedDate'>;

export interface OrderTickets {
  /** The order, `pending`, as read: `issuedTickets` (position → id) says which attendees have theirs. */
  order: Order;
  attendees: readonly OrderAttendee[];
  /** The hold the tickets come from (`held` → `sold`), one place per attendee. */
  takes: readonly StockTake[];
  customerId: number | null;
  actor: Actor;
}

interface Planned {
  position: number;
  change: TicketChange;
  shard: number;
}

/**
 * The one way an order's tickets are issued (a paid checkout's, a box-office sale's, a seeded order's): every
 * attendee without a ticket yet gets one, as many as fit in one transaction together (each ticket's record, history,
 * barcode, lists and search entries; the counters they move summed, each touched once: the type's `sold`, the
 * statistics, positions and purchase counts; their hold's `held` → `sold` once per shard), with their record on the
 * order (`issuedTickets`, conditional on it still issuing as read: orders.ts `issuedTicketsActions`). The last
 * transaction moves the order `active` with all its ticket ids, so an order of two is one transaction. A larger
 * order goes in chunks, each recorded on the order, so an issue resumed after a failure skips what a chunk issued.
 * The order active, and the tickets this call issued. Throws OrderLeftIssuing when the order moved meanwhile (nothing
 * of that chunk written).
 */
export async function issueOrderTickets(tickets: OrderTickets): Promise<{ order: Order; issued: TicketRecord[] }> {
  const { order } = tickets;
  const records: TicketRecord[] = [];
  const issued = { ...(order.issuedTickets ?? {}) };
  let current = order;
  let waiting = await plannedTickets(tickets, issued);
  do {
    const chunk = fitting(current, issued, waiting, tickets.attendees.length);
    if (waiting.length && !chunk.length)
      throw new Error(`Order ${order.id}: one ticket's issue exceeds a transaction.`);
    for (const { position, change } of chunk) issued[position] = change.after.id;
    records.push(...chunk.map(({ change }) => change.after));
    waiting = waiting.slice(chunk.length);
    const ticketIds = waiting.length ? undefined : tickets.attendees.map((_, position) => issued[position]!);
    await commitTicketChanges(
      chunk.map(({ change }) => change),
      chunkExtras(current, chunk, { ...issued }, ticketIds),
    );
    current = ticketIds
      ? { ...current, status: 'active', issuedTickets: { ...issued }, ticketIds }
      : { ...current, issuedTickets: { ...issued } };
  } while (waiting.length);
  await orderEntriesCaughtUp([order.id]);
  return { order: current, issued: records };
}

/** The tickets of the attendees without one, in attendee order, their ids allocated at once. */
async function plannedTickets(
  { order, attendees, takes, customerId, actor }: OrderTickets,
  issued: Record<string, number>,
): Promise<Planned[]> {
  const from = attendeeTakes(takes, attendees);
  const positions = [...attendees.keys()].filter((position) => issued[position] === undefined);
  if (!positions.length) return [];
  const types = await typesOf(positions.map((position) => attendees[position]!.typeId));
  const first = await allocateIds(TICKET_SEQUENCE, positions.length);
  const at = now().toISOString();
  return positions.map((position, n) => {
    const attendee = attendees[position]!;
    const input = { ...attendee, orderId: order.id, customerId, purchasedDate: order.purchasedDate };
    const change = newTicketChange(first + n, types.get(attendee.typeId)!, input, actor, at);
    return { position, change, shard: from[position]!.shard };
  });
}

async function typesOf(typeIds: number[]): Promise<Map<number, TicketType>> {
  const types = new Map<number, TicketType>();
  for (const typeId of new Set(typeIds)) {
    const type = await findTicketType(typeId);
    if (!type)
      throw new ValidationError(`Ticket type ${typeId} does not exist.`, [
        { path: 'typeId', message: 'Unknown ticket type.' },
      ]);
    types.set(typeId, type);
  }
  return types;
}

/** The most of `waiting`, from its start, whose transaction stays within MAX_ACTIONS (at least one, or none left). */
function fitting(order: Order, issued: Record<string, number>, waiting: Planned[], attendees: number): Planned[] {
  for (let size = waiting.length; size > 0; size--) {
    const chunk = waiting.slice(0, size);
    const after = {
      ...issued,
      ...Object.fromEntries(chunk.map(({ position, change }) => [position, change.after.id])),
    };
    const ticketIds = size === waiting.length ? Array.from({ length: attendees }, (_, n) => after[n]!) : undefined;
    const actions = ticketChangeActions(
      chunk.map(({ change }) => change),
      chunkExtras(order, chunk, after, ticketIds),
    );
    if (actions.length <= MAX_ACTIONS) return chunk;
  }
  return [];
}

/** The chunk's hold moves (`held` → `sold`, once per shard) and the order's record of it (orders.ts). */
function chunkExtras(
  order: Order,
  chunk: readonly Planned[],
  issued: Record<string, number>,
  ticketIds: number[] | undefined,
): ExtraAction[] {
  // Each shard's move carries its tickets' sales figures (sale-figures.ts), added in the same update.
  const sold = new Map<string, StockTake & { sums: SaleSums }>();
  for (const { change, shard } of chunk) {
    const { typeId } = change.after;
    const key = `${typeId}#${shard}`;
    const take = sold.get(key) ?? { typeId, shard, quantity: 0, sums: NO_SALES };
    take.quantity++;
    take.sums = addSums(take.sums, ticketSums(change.after));
    sold.set(key, take);
  }
  const [record, ...counts] = issuedTicketsActions(order, issued, ticketIds);
  // The order's record first: when it moved (a cancel gave the hold back), that is the refusal reported, not the hold's.
  return [
    { action: record!, onConditionFailed: () => new OrderLeftIssuing(order.id) },
    ...[...sold.values()].map((take) => ({
      action: soldFromHoldAction(take),
      onConditionFailed: () => soldOut(take.typeId),
    })),
    ...counts.map((action) => ({ action })),
  ];
}
