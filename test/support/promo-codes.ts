import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { type CallResult, call } from './api.ts';
import { newCustomer } from './customers.ts';
import { adminToken, customerToken } from './tokens.ts';

/** A promo code as the tests name it: its id and its event's. */
export interface CodeRef {
  id: number;
  eventId: number;
}

/** A code text no other test uses. */
export const uniqueCode = (): string => `C${randomUUID().replaceAll('-', '').slice(0, 10)}`;

/** A new promo code of the event (`body` its terms, a code of its own unless given), created by `token` (default: every permission). */
export async function addPromoCode(
  eventId: number,
  body: Record<string, unknown>,
  token?: string,
): Promise<CodeRef & { code: string }> {
  const created = await call('POST', `/api/v2/events/${eventId}/promo-codes`, {
    token: token ?? (await adminToken()),
    body: { code: uniqueCode(), ...body },
  });
  expect(created.status, created.raw).toBe(201);
  return created.body.data;
}

/** The code's uses as the organiser's list answers them (the sum over its shards). */
export async function usesOf(code: CodeRef): Promise<number> {
  const listed = await call('GET', `/api/v2/events/${code.eventId}/promo-codes`, { token: await adminToken() });
  return listed.body.data.find((one: { id: number }) => one.id === code.id)?.uses;
}

/**
 * Buyers (holds or desk sales) who raced for a code's `maxUses` uses: exactly that many won one, every other was
 * refused as used up or asked to retry (outraced while uses were left), and the code counts exactly `maxUses`.
 */
export async function expectNeverPastMaxUses(answers: CallResult[], code: CodeRef, maxUses: number): Promise<void> {
  expect(answers.filter((answer) => answer.status === 201)).toHaveLength(maxUses);
  const reasons = answers.filter((answer) => answer.status !== 201).map((answer) => answer.body.reason);
  expect(
    reasons.every((reason) => ['promo_code_used_up', 'concurrent_update'].includes(reason)),
    reasons.join(),
  ).toBe(true);
  expect(await usesOf(code)).toBe(maxUses);
}

const RESERVATIONS = '/api/v2/my-account/reservations';

/**
 * A new customer's hold of one ticket of `typeId` with the promo code `code`, checked out with Ada Lovelace attending:
 * the buyer's token, the hold's and the checkout's answers (both 201).
 */
export async function promoCheckout(
  eventId: number,
  typeId: number,
  code: string,
): Promise<{ token: string; held: CallResult; checkout: CallResult }> {
  const customer = await newCustomer();
  const token = await customerToken(customer.id, { email: customer.email });
  const held = await call('POST', RESERVATIONS, {
    token,
    body: { eventId, lines: [{ typeId, quantity: 1 }], promoCode: code },
  });
  expect(held.status, held.raw).toBe(201);
  const checkout = await call('POST', `${RESERVATIONS}/${held.body.data.id}/checkout`, {
    token,
    body: { attendees: [{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }] },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(checkout.status, checkout.raw).toBe(201);
  return { token, held, checkout };
}
