import { currencyExponent, toMajor, toMinor } from '../../money.ts';
import type { Event, TicketType } from '../../events/domain/event.ts';
import type { TaxRule } from './pricing-schemas.ts';
import type { Order } from './order.ts';

/**
 * The orders' export as CSV (`GET /orders/export`): one row per order with its amounts as priced, what was paid and
 * refunded, its promo code, its invoice number and its tax per rate. RFC 4180: fields separated by commas, rows by
 * CRLF, a field holding a comma, a quote or a line break quoted with its quotes doubled. CSV injection (OWASP): a text
 * cell a spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is
 * prefixed with `'`, so a buyer's name such as `=HYPERLINK(…)` is shown, never run. No library: the project has none,
 * and this is the whole of it.
 */

/**
 * The orders of one export part at most: with their tickets (read for the tax per rate) at most
 * EXPORT_TICKETS_PER_PART, each part is bounded in reads (the list's walk within its budget of index items, its
 * orders' and tickets' BatchGetItems) and in size (about 300 bytes a row: far below API Gateway's 6 MB answer).
 */
export const EXPORT_ORDERS_PER_PART = 1000;
export const EXPORT_TICKETS_PER_PART = 5000;

const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, neutralised and quoted as needed. */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One row, CRLF-terminated. */
export const csvRow = (fields: readonly string[]): string => `${fields.map(csvField).join(',')}\r\n`;

/** A tax's column: its name and rate, as the event's settings state them now. */
const taxColumn = (rule: TaxRule) => `tax ${rule.name} ${rule.rate}%`;

/**
 * The tax columns of an event's export, fixed before any order is read (the header is written once, on the first
 * part): one per distinct tax, its types' and its fee's and shipping's, as the event states them now.
 */
export function taxColumns(
  event: Pick<Event, 'feeTax' | 'shippingTax'>,
  types: readonly Pick<TicketType, 'tax'>[],
): string[] {
  const rules = [...types.map((type) => type.tax), event.feeTax, event.shippingTax];
  return [...new Set(rules.flatMap((rule) => (rule ? [taxColumn(rule)] : [])))];
}

export const ORDER_COLUMNS = [
  'orderId',
  'purchasedDate',
  'status',
  'purchaser',
  'emailAddress',
  'tickets',
  'currency',
  'ticketsAmount',
  'discount',
  'fees',
  'shipping',
  'tax',
  'total',
  'paid',
  'refunded',
  'promoCode',
  'invoiceNumber',
  'billingCompany',
  'billingTaxId',
  'billingAddress',
] as const;

/** What an order's row needs of its tickets: each one's type and tax, and its part of the fee's tax. */
export type ExportedTicket = { typeId: number; taxAmount: number; feeTax?: number };

export interface OrderRowContext {
  currency: string;
  event: Pick<Event, 'feeTax' | 'shippingTax'>;
  types: ReadonlyMap<number, Pick<TicketType, 'tax'>>;
  columns: readonly string[];
}

/**
 * An order's row. Its tax per rate: each ticket's `taxAmount` under its type's tax, its part of the fee's tax under
 * the fee's, and the rest of the order's `tax` (the shipping's) under the shipping's, so the columns add up to `tax`.
 */
export function orderRow(
  order: Order,
  tickets: readonly ExportedTicket[],
  invoiceNumber: string | undefined,
  context: OrderRowContext,
): string {
  const { currency } = context;
  const minor = (amount: number | undefined) => toMinor(amount ?? 0, currency);
  const figure = (amount: number) => toMajor(amount, currency).toFixed(currencyExponent(currency));
  const byColumn = new Map<string, number>();
  const add = (rule: TaxRule | null | undefined, amount: number) => {
    if (rule && amount) byColumn.set(taxColumn(rule), (byColumn.get(taxColumn(rule)) ?? 0) + amount);
  };
  for (const ticket of tickets) {
    add(context.types.get(ticket.typeId)?.tax, minor(ticket.taxAmount));
    add(context.event.feeTax, minor(ticket.feeTax));
  }
  const amounts = order.amounts;
  const ticketsTax = tickets.reduce((sum, ticket) => sum + minor(ticket.taxAmount) + minor(ticket.feeTax), 0);
  if (amounts) add(context.event.shippingTax, minor(amounts.tax) - ticketsTax);
  const moved = (sign: 1 | -1) =>
    order.transactions.reduce((sum, { amount }) => (Math.sign(amount) === sign ? sum + minor(amount) : sum), 0);
  const priced = (name: keyof NonNullable<Order['amounts']>) => (amounts ? figure(minor(amounts[name] as number)) : '');
  return csvRow([
    String(order.id),
    order.purchasedDate,
    order.status,
    order.purchaser,
    order.emailAddress,
    String(order.ticketIds.length),
    currency,
    priced('tickets'),
    priced('discount'),
    priced('fees'),
    priced('shipping'),
    priced('tax'),
    figure(minor(order.grandTotal)),
    figure(moved(1)),
    figure(-moved(-1)),
    order.promo?.code ?? '',
    invoiceNumber ?? '',
    order.billing?.company ?? '',
    order.billing?.taxId ?? '',
    order.billing?.address ?? '',
    ...context.columns.map((column) => figure(byColumn.get(column) ?? 0)),
  ]);
}
