import { expect } from 'vitest';
import { type CallResult, call } from './api.ts';
import { adminToken } from './tokens.ts';

/** A promo code as the tests name it: its id and its event's. */
export interface CodeRef {
  id: number;
  eventId: number;
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
