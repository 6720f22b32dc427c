import type { CustomerPrincipal } from '../../auth/tokens.ts';
import { readTicketsAndCounts } from '../../selling/data/customer-order-counts.ts';
import { takeSlot } from '../../data/rate-limits.ts';
import { listCustomerTickets } from '../../tickets/data/ticket-records.ts';
import {
  accountDetailsMail,
  orderConfirmationMail,
  ticketsMail,
  type AccountMail,
  type AccountMailType,
} from '../domain/account-mail.ts';
import { normalisedEmail, type Customer } from '../domain/customer.ts';
import { RateLimited, ValidationError } from '../../errors.ts';
import { sendEmail } from '../../services/email.ts';
import { requireCaller } from './account.ts';
import { walkCustomerOrders } from '../../lists/orders.ts';

/** Mails per customer in any hour: enough to resend what was lost, too few to flood a mailbox. */
export const ACCOUNT_MAILS_PER_HOUR = 5;
const TICKETS_PER_MAIL = 50;

async function compose(customer: Customer, type: AccountMailType): Promise<AccountMail> {
  switch (type) {
    case 'account_details':
      return accountDetailsMail(customer);
    case 'order_confirmation': {
      const newest = (await walkCustomerOrders(customer.id, undefined, {}, { need: 1 })).orders[0]?.order;
      const { tickets } = newest
        ? await readTicketsAndCounts(customer.id, newest.ticketIds, false)
        : { tickets: new Map() };
      return orderConfirmationMail(
        customer,
        newest,
        newest ? newest.ticketIds.flatMap((id) => tickets.get(id) ?? []) : [],
      );
    }
    case 'tickets': {
      const page = await listCustomerTickets(customer.id, { limit: TICKETS_PER_MAIL, offset: 0 });
      return ticketsMail(customer, page.items, page.more);
    }
  }
}

/**
 * `PUT /my-account/email {email, type}`: one of the fixed mails, to the account's own
 * address only (the body's `email` must be it), so the route cannot mail strangers; at
 * most ACCOUNT_MAILS_PER_HOUR per customer, counted before anything is read or sent.
 */
export async function sendAccountMail(
  caller: CustomerPrincipal,
  request: { email: string; type: AccountMailType },
): Promise<{ sent: true; type: AccountMailType; email: string }> {
  const customer = await requireCaller(caller);
  if (normalisedEmail(request.email) !== normalisedEmail(customer.emailAddress)) {
    throw new ValidationError("Mail goes only to this account's own address.", [
      { path: 'body.email', message: 'Not the address of this account.' },
    ]);
  }
  const slot = await takeSlot('ACCOUNT_MAIL', String(customer.id), ACCOUNT_MAILS_PER_HOUR, 3600);
  if (!slot.allowed)
    throw new RateLimited(
      `At most ${ACCOUNT_MAILS_PER_HOUR} account emails an hour; try again later.`,
      slot.retryAfterSeconds,
    );
  const mail = await compose(customer, request.type);
  await sendEmail({ to: customer.emailAddress, ...mail });
  return { sent: true, type: request.type, email: customer.emailAddress };
}
