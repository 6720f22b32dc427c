import type { Customer } from './customer.ts';
import { orderTicketStatus, type Order } from '../../selling/domain/order.ts';
import type { TicketRecord } from '../../tickets/domain/ticket.ts';
import { formatAmount } from '../../money.ts';

/**
 * The emails a customer may have sent to their own address (`PUT /my-account/email`):
 * a fixed set, each composed here from what the account holds. Plain text, no links
 * that sign anyone in.
 */
export const ACCOUNT_MAIL_TYPES = ['account_details', 'order_confirmation', 'tickets'] as const;
export type AccountMailType = (typeof ACCOUNT_MAIL_TYPES)[number];

export interface AccountMail {
  subject: string;
  text: string;
}

const attendee = (ticket: TicketRecord) =>
  `${ticket.partyMember} ${ticket.partyMemberLastName}`.trim() || '(no name yet)';
const ticketLine = (ticket: TicketRecord) =>
  `- Ticket ${ticket.id} (event ${ticket.eventId}), ${attendee(ticket)}, barcode ${ticket.barcode}, ${orderTicketStatus(ticket).replace('_', ' ')}`;

export function accountDetailsMail(customer: Customer): AccountMail {
  const line = (label: string, value: string | null | undefined) => `${label}: ${value ?? '(not set)'}`;
  return {
    subject: 'Your account details',
    text: [
      `Hello ${customer.name},`,
      '',
      'These are the details of your ticket portal account:',
      line('Name', customer.name),
      line('Email address', customer.emailAddress),
      line('Account number', customer.accountNumber),
      line('Address', customer.primary),
      line('Billing address', customer.billing),
    ].join('\n'),
  };
}

/** The newest order's confirmation, or a note that there is none yet. */
export function orderConfirmationMail(
  customer: Customer,
  order: Order | undefined,
  tickets: readonly TicketRecord[],
): AccountMail {
  if (!order)
    return { subject: 'Your orders', text: `Hello ${customer.name},\n\nThere are no orders on your account yet.` };
  return {
    subject: `Your order ${order.id}`,
    text: [
      `Hello ${customer.name},`,
      '',
      `Order ${order.id} of ${order.purchasedDate.slice(0, 10)} (${order.status}), total ${formatAmount(order.grandTotal, order.checkout?.currency)}:`,
      ...tickets.map(ticketLine),
    ].join('\n'),
  };
}

/** The account's tickets (the first page of them; the mail says when there are more). */
export function ticketsMail(customer: Customer, tickets: readonly TicketRecord[], more: boolean): AccountMail {
  return {
    subject: 'Your tickets',
    text: [
      `Hello ${customer.name},`,
      '',
      tickets.length ? 'These are the tickets on your account:' : 'There are no tickets on your account yet.',
      ...tickets.map(ticketLine),
      ...(more ? ['', 'More tickets are on your account: see them in the portal.'] : []),
    ].join('\n'),
  };
}
