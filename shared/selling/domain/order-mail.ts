import { API_PREFIX } from '../../api-prefix.ts';
import { formatAmount, toMajor, toMinor } from '../../money.ts';
import { saleCurrency, type Event, type TicketType } from '../../events/domain/event.ts';
import type { Order } from './order.ts';
import { paidForTicket } from './sale-prices.ts';
import type { PrintedTicket } from '../../tickets/domain/printed-ticket.ts';
import { barcodeQrPng } from '../../tickets/domain/qr-code.ts';
import type { ShippingMethod } from './shipping-method.ts';

/**
 * The order confirmation mail, sent once an order is paid (shared/selling/use-cases/order-confirmation.ts): the
 * order's lines by ticket type, the shipping, the total, each ticket with its attendee, type and wave, and a link
 * to the portal. With e-tickets (the shipping method's `hasETickets`, or no method) each ticket's barcode goes
 * with it as a QR code: an inline image (`cid:`, SES v2 Simple content's inline attachments: mail clients block
 * `data:` images) and the barcode as text. Without e-tickets the mail says the tickets will be posted and carries
 * no barcode: the posted ticket is the one to bring. HTML and a plain-text part alike; every value from the
 * organiser or the buyer is HTML-escaped.
 */
export interface InlineImage {
  fileName: string;
  /** Referenced from the HTML as `cid:<contentId>`. */
  contentId: string;
  contentType: 'image/png';
  bytes: Uint8Array;
}

export interface OrderMail {
  subject: string;
  text: string;
  html: string;
  inline: InlineImage[];
}

export interface OrderMailInput {
  order: Order;
  /** In the order's attendee order. */
  tickets: readonly PrintedTicket[];
  /**
   * By ticket id, its type (the line it counts in) and its price, tax and part of the booking fee as sold: the mail
   * prices from the order, never from the type's price today (a comp sale is 0, a price changed since the hold does
   * not show).
   */
  soldAs: ReadonlyMap<number, { typeId: number; price: number; taxAmount: number; bookingFee?: number }>;
  types: ReadonlyMap<number, TicketType>;
  event: Event;
  shippingMethod: ShippingMethod | null;
  portalUrl: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

interface Line {
  label: string;
  amount: string;
}

/**
 * One line per type sold (each ticket as it cost, its tax in), the booking fee, the shipping: what the
 * order's total holds beyond its tickets (a checkout's total is its reservation's, shipping included), so the lines add
 * up to the total shown; then the tax the total includes (every tax, included in a price or added to it). Sums in
 * minor units.
 */
function linesOf(input: OrderMailInput): { lines: Line[]; total: string; tax: string | null } {
  const currency = input.order.checkout?.currency ?? saleCurrency(input.event);
  const money = (minor: number) => formatAmount(toMajor(minor, currency), currency);
  // By type only: a line's tickets may differ by a cent where its tax was split over them (sale-prices.ts).
  const sold = new Map<number, { typeId: number; count: number; minor: number }>();
  let [ticketsMinor, feesMinor] = [0, 0];
  for (const ticket of input.tickets) {
    const { typeId, ...price } = input.soldAs.get(ticket.ticketId)!;
    const minor = paidForTicket({ ...price, bookingFee: 0 }, currency);
    const line = sold.get(typeId) ?? { typeId, count: 0, minor: 0 };
    sold.set(typeId, { typeId, count: line.count + 1, minor: line.minor + minor });
    ticketsMinor += minor;
    feesMinor += toMinor(price.bookingFee ?? 0, currency);
  }
  const lines: Line[] = [...sold.values()].map(({ typeId, count, minor }) => ({
    label: `${count} × ${input.types.get(typeId)?.name ?? `Ticket type ${typeId}`}`,
    amount: money(minor),
  }));
  if (feesMinor) lines.push({ label: 'Booking fee', amount: money(feesMinor) });
  const totalMinor = toMinor(input.order.grandTotal, currency);
  if (input.shippingMethod)
    lines.push({
      label: `Shipping: ${input.shippingMethod.name}`,
      amount: money(totalMinor - ticketsMinor - feesMinor),
    });
  const tax = input.order.amounts?.tax ? money(toMinor(input.order.amounts.tax, currency)) : null;
  return { lines, total: money(totalMinor), tax };
}

const contentIdOf = (ticket: PrintedTicket) => `ticket-${ticket.ticketId}@tickets`;

export async function paidOrderMail(input: OrderMailInput): Promise<OrderMail> {
  const { order, event, tickets, shippingMethod } = input;
  const eTickets = shippingMethod?.hasETickets ?? true;
  const portal = input.portalUrl.replace(/\/+$/, '');
  const { lines, total, tax } = linesOf(input);
  // The buyer's invoice route, through the portal's origin (it proxies the API): a free order has no invoice.
  const invoice = order.grandTotal > 0 ? `${portal}${API_PREFIX}/my-account/orders/${order.id}/invoice` : null;
  const [first] = tickets;
  const when = first?.when ?? null;
  const venue = first?.venue ?? null;
  const delivery = eTickets
    ? 'Show each ticket’s QR code at the entrance (or print the tickets from the portal); each admits once.'
    : `Your tickets will be posted to you (${shippingMethod!.name}). This mail is not a ticket.`;
  const ticketLine = (ticket: PrintedTicket) =>
    [
      `Ticket ${ticket.ticketId}: ${ticket.attendee}, ${ticket.typeName}`,
      ticket.wave,
      eTickets ? `barcode ${ticket.barcode}` : null,
    ]
      .filter(Boolean)
      .join(', ');

  const text = [
    `Hello ${order.purchaser || 'there'},`,
    '',
    `Thank you for your order ${order.id}, placed ${order.purchasedDate.slice(0, 10)}.`,
    '',
    event.title,
    ...(when ? [when] : []),
    ...(venue ? [venue] : []),
    '',
    ...lines.map((line) => `${line.label}${line.amount ? `: ${line.amount}` : ''}`),
    `Total: ${total}`,
    ...(tax ? [`Tax included in the total: ${tax}`] : []),
    '',
    'Your tickets:',
    ...tickets.map((ticket) => `- ${ticketLine(ticket)}`),
    '',
    delivery,
    '',
    `Your orders and tickets in the portal: ${portal}`,
    ...(invoice ? [`Your invoice: ${invoice}`] : []),
  ].join('\n');

  const inline: InlineImage[] = eTickets
    ? await Promise.all(
        tickets.map(async (ticket) => ({
          fileName: `ticket-${ticket.ticketId}.png`,
          contentId: contentIdOf(ticket),
          contentType: 'image/png' as const,
          bytes: await barcodeQrPng(ticket.barcode),
        })),
      )
    : [];
  const cell = (content: string, align = 'left') =>
    `<td style="padding:4px 12px 4px 0;text-align:${align}">${content}</td>`;
  const ticketHtml = (ticket: PrintedTicket) =>
    [
      '<div style="border:1px solid #ddd;padding:12px;margin:12px 0">',
      `<p style="margin:0"><strong>${escapeHtml(ticket.attendee)}</strong>, ${escapeHtml(ticket.typeName)}${ticket.wave ? `, ${escapeHtml(ticket.wave)}` : ''}</p>`,
      `<p style="margin:0;color:#666">Ticket ${ticket.ticketId}</p>`,
      eTickets
        ? `<img src="cid:${contentIdOf(ticket)}" width="200" height="200" alt="QR code of ticket ${ticket.ticketId}"><p style="margin:0;font-family:monospace;font-size:16px">${escapeHtml(ticket.barcode)}</p>`
        : '',
      '</div>',
    ].join('');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;color:#222">',
    `<p>Hello ${escapeHtml(order.purchaser || 'there')},</p>`,
    `<p>Thank you for your order ${order.id}, placed ${escapeHtml(order.purchasedDate.slice(0, 10))}.</p>`,
    `<h2 style="margin-bottom:0">${escapeHtml(event.title)}</h2>`,
    when ? `<p style="margin:0">${escapeHtml(when)}</p>` : '',
    venue ? `<p style="margin:0">${escapeHtml(venue)}</p>` : '',
    '<table style="margin:16px 0;border-collapse:collapse">',
    ...lines.map((line) => `<tr>${cell(escapeHtml(line.label))}${cell(escapeHtml(line.amount), 'right')}</tr>`),
    `<tr>${cell('<strong>Total</strong>')}${cell(`<strong>${escapeHtml(total)}</strong>`, 'right')}</tr>`,
    tax ? `<tr>${cell('Tax included in the total')}${cell(escapeHtml(tax), 'right')}</tr>` : '',
    '</table>',
    `<p>${escapeHtml(delivery)}</p>`,
    ...tickets.map(ticketHtml),
    `<p><a href="${escapeHtml(portal)}">Your orders and tickets in the portal</a></p>`,
    invoice ? `<p><a href="${escapeHtml(invoice)}">Your invoice</a></p>` : '',
    '</body></html>',
  ].join('\n');

  return { subject: `Your tickets for ${event.title} (order ${order.id})`, text, html, inline };
}
