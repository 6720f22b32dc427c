import type { CustomerPrincipal } from '../../auth/tokens.ts';
import { now } from '../../clock.ts';
import { holderOfEmail, saveAccountUpdate } from '../data/customers.ts';
import { requireSlots, takeSlot } from '../../data/rate-limits.ts';
import { applyAccountUpdate, VERIFICATION_TTL_SECONDS, type AccountUpdate } from '../domain/customer.ts';
import { toCustomerResource, type CustomerResource } from '../domain/customer.ts';
import { Conflict, RateLimited } from '../../errors.ts';
import { requireCaller } from './account.ts';
import { newVerificationToken, sendVerificationMail } from './verification-mail.ts';

/** Each address change mails a stranger's address: at most this many per customer per day. */
export const EMAIL_CHANGE_LIMIT = 5;
const DAY_SECONDS = 24 * 60 * 60;
/**
 * Asking for a new address tells whether another account holds it (409 `email_taken`), so
 * those questions are limited before the address is looked up: per customer, and per
 * client network across customers (many throwaway accounts on one network).
 */
export const EMAIL_LOOKUPS = { perCustomer: 10, perClient: 30, windowSeconds: 60 * 60 } as const;

/**
 * `PATCH /my-account`. Plain fields are written at once. A new `emailAddress` is not: it
 * becomes `pendingEmailAddress` (409 `email_taken` when another customer's login), a
 * token for it is stored in the same transaction and mailed to the new address, and the
 * login changes only when the customer signs in with that token (see customer-login.ts).
 */
export async function updateAccount(
  caller: CustomerPrincipal,
  update: AccountUpdate,
  client: string,
): Promise<CustomerResource> {
  const customer = await requireCaller(caller);
  const { customer: next, verifyAddress } = applyAccountUpdate(customer, update, now().toISOString());
  if (!verifyAddress) return toCustomerResource(await saveAccountUpdate(next));

  await limitEmailLookups(customer.id, client);
  const holder = await holderOfEmail(verifyAddress);
  if (holder !== undefined && holder !== customer.id)
    throw new Conflict(`The address ${verifyAddress} belongs to another account.`, 'email_taken');
  const slot = await takeSlot('EMAIL_CHANGE', String(customer.id), EMAIL_CHANGE_LIMIT, DAY_SECONDS);
  if (!slot.allowed)
    throw new RateLimited(`At most ${EMAIL_CHANGE_LIMIT} address changes per day.`, slot.retryAfterSeconds);

  const { token, tokenHash } = newVerificationToken();
  const saved = await saveAccountUpdate(next, {
    tokenHash,
    address: verifyAddress,
    ttlSeconds: VERIFICATION_TTL_SECONDS,
  });
  await sendVerificationMail(verifyAddress, token, 'new-address', customer.id);
  return toCustomerResource(saved);
}

function limitEmailLookups(customerId: number, client: string): Promise<void> {
  const { perCustomer, perClient, windowSeconds } = EMAIL_LOOKUPS;
  return requireSlots(
    [
      { name: 'EMAIL_LOOKUP_CUSTOMER', subject: String(customerId), limit: perCustomer, windowSeconds },
      { name: 'EMAIL_LOOKUP_CLIENT', subject: client, limit: perClient, windowSeconds },
    ],
    ({ limit }) => `At most ${limit} address changes asked for per hour; try again later.`,
  );
}
