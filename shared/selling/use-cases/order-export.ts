import type { AdminPrincipal } from '../../auth/tokens.ts';
import { getEvent, listTicketTypes } from '../../events/data/events.ts';
import { saleCurrency } from '../../events/domain/event.ts';
import { NotFound } from '../../errors.ts';
import { inScope } from '../../identity/use-cases/event-scope.ts';
import { walkStaffOrders } from '../../lists/orders.ts';
import { decodeSortCursor, encodeSortCursor } from '../../lists/portal.ts';
import { readTicketRecords } from '../../tickets/data/ticket-records.ts';
import {
  csvRow,
  EXPORT_ORDERS_PER_PART,
  EXPORT_TICKETS_PER_PART,
  ORDER_COLUMNS,
  orderRow,
  taxColumns,
} from '../domain/order-csv.ts';
import type { Order } from '../domain/order.ts';
import { invoiceNumbersOf } from '../data/invoices.ts';

export interface ExportPart {
  csv: string;
  /** The list's cursor after this part's last order, while more remain. */
  next: string | null;
}

/**
 * `GET /orders/export?event=`: an event's orders as CSV (domain/order-csv.ts), newest first as `GET /orders` lists
 * them, in parts: the header row on the first, each part at most `limit` orders (EXPORT_ORDERS_PER_PART) and
 * EXPORT_TICKETS_PER_PART tickets, `next` the list's own cursor (lists/orders.ts) while more remain. API Gateway's
 * HTTP APIs cannot stream a Lambda's answer and buffer at most 6 MB, so "any size" is many bounded answers. Another
 * scope's event is 404.
 */
export async function exportEventOrders(
  caller: Pick<AdminPrincipal, 'eventScope'>,
  eventId: number,
  { cursor, limit = EXPORT_ORDERS_PER_PART }: { cursor?: string; limit?: number },
): Promise<ExportPart> {
  if (!inScope(caller.eventScope, eventId)) throw new NotFound('Event', eventId);
  const after = cursor === undefined ? undefined : decodeSortCursor(cursor);
  const [event, types, read] = await Promise.all([
    getEvent(eventId),
    listTicketTypes(eventId),
    walkStaffOrders({ eventIds: [eventId] }, { need: limit + 1, after }),
  ]);
  const part = withinTickets(read.orders.slice(0, limit));
  const [tickets, invoices] = await Promise.all([
    readTicketRecords(part.flatMap(({ order }) => order.ticketIds)),
    invoiceNumbersOf(part.map(({ order }) => order.id)),
  ]);
  const context = {
    currency: saleCurrency(event),
    event,
    types: new Map(types.map((type) => [type.id, type])),
    columns: taxColumns(event, types),
  };
  const rows = part.map(({ order }) =>
    orderRow(
      order,
      order.ticketIds.flatMap((id) => tickets.get(id) ?? []),
      invoices.get(order.id),
      context,
    ),
  );
  const more = read.orders.length > part.length;
  return {
    csv: (after === undefined ? csvRow([...ORDER_COLUMNS, ...context.columns]) : '') + rows.join(''),
    next: more && part.length ? encodeSortCursor(part.at(-1)!.sort) : null,
  };
}

/** The first orders whose tickets stay within EXPORT_TICKETS_PER_PART (at least one). */
function withinTickets<T extends { order: Pick<Order, 'ticketIds'> }>(orders: readonly T[]): T[] {
  let tickets = 0;
  const kept: T[] = [];
  for (const entry of orders) {
    tickets += entry.order.ticketIds.length;
    if (kept.length && tickets > EXPORT_TICKETS_PER_PART) break;
    kept.push(entry);
  }
  return kept;
}
