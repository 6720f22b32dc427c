import type { TicketWaiver } from './waivers.ts';
import type { Ticket, TicketClaim, TicketRecord, TicketRefund } from './ticket.ts';
import { toTicket } from './ticket-view.ts';
import { addAmounts } from '../money.ts';

/**
 * What `GET /ticket` (the older list for integrations) answers for each ticket, pure: the
 * ticket as `GET /ticket/{id}` answers it and the `_include` expansions. Which tickets, in
 * which order, is the list engine's (shared/lists/).
 */

/** `_include` values (the OpenAPI description of GET /ticket). */
export const OLDER_TICKET_INCLUDES = [
  'costs',
  'refundProtect',
  'change',
  'promoter',
  'waveTime',
  'waivers',
  'user',
] as const;
export type OlderTicketInclude = (typeof OLDER_TICKET_INCLUDES)[number];

export interface TicketCosts {
  price: number;
  taxAmount: number;
  gratuityAmount: number;
  paidUponCheckout: number;
  /** price + taxAmount + gratuityAmount, to the cent. */
  total: number;
}
export interface ListWaveTime {
  id: number;
  name: string;
  /** An event-local time: in the event's offset, as GET /my-account/wave-time answers it. */
  startTime: string;
  capacity: number;
}
export interface ListUser {
  id: number;
  name: string;
  emailAddress: string;
}

/** A listed ticket: the ticket as `GET /ticket/{id}` answers it, plus the asked-for expansions. */
export interface ListedTicket extends Ticket {
  costs?: TicketCosts;
  refundProtect?: TicketRefund;
  change?: TicketClaim | null;
  promoter?: string | null;
  waveTime?: ListWaveTime | null;
  waivers?: TicketWaiver[];
  user?: ListUser | null;
}

/** What the expansions need beyond the records, read once per page. */
export interface PageRelations {
  affiliates: ReadonlyMap<number, string | null>;
  waves: ReadonlyMap<string, ListWaveTime>;
  users: ReadonlyMap<number, ListUser>;
  waivers: ReadonlyMap<number, TicketWaiver[]>;
}

export const waveKey = (eventId: number, waveTimeId: number): string => `${eventId}/${waveTimeId}`;

export const costsOf = (record: TicketRecord): TicketCosts => ({
  price: record.price,
  taxAmount: record.taxAmount,
  gratuityAmount: record.gratuityAmount,
  paidUponCheckout: record.paidUponCheckout,
  total: addAmounts([record.price, record.taxAmount, record.gratuityAmount]),
});

export function toListedTicket(
  record: TicketRecord,
  include: readonly OlderTicketInclude[],
  related: PageRelations,
): ListedTicket {
  const out: ListedTicket = toTicket(record);
  const has = (name: OlderTicketInclude) => include.includes(name);
  if (has('costs')) out.costs = costsOf(record);
  if (has('refundProtect')) out.refundProtect = { status: record.refund.status, amount: record.refund.amount };
  // As `_include=change_status` shows it on /tickets.
  if (has('change')) out.change = toTicket(record, ['change_status']).ticketClaim ?? null;
  if (has('promoter')) out.promoter = record.orderId == null ? null : (related.affiliates.get(record.orderId) ?? null);
  if (has('waveTime'))
    out.waveTime =
      record.waveTimeId == null ? null : (related.waves.get(waveKey(record.eventId, record.waveTimeId)) ?? null);
  if (has('waivers')) out.waivers = related.waivers.get(record.id) ?? [];
  if (has('user')) out.user = record.customerId == null ? null : (related.users.get(record.customerId) ?? null);
  return out;
}
