import { expect } from 'vitest';
import type { CallResult } from './api.ts';

/** `{ policy: { q, w } }` and `{ policy: { r, t } }` from an answer's `RateLimit-Policy` and `RateLimit` headers. */
export function budgets(answer: CallResult): {
  policy: Record<string, Record<string, number>>;
  left: Record<string, Record<string, number>>;
} {
  const parse = (value: string | undefined) =>
    Object.fromEntries(
      (value ?? '')
        .split(', ')
        .filter(Boolean)
        .map((member) => {
          const [name, ...parameters] = member.split(';');
          return [
            JSON.parse(name!) as string,
            Object.fromEntries(
              parameters.map((parameter) => [parameter.split('=')[0]!, Number(parameter.split('=')[1])]),
            ),
          ];
        }),
    );
  return { policy: parse(answer.headers['ratelimit-policy']), left: parse(answer.headers.ratelimit) };
}

/**
 * What the tightest budget an answer was counted against has left (`r`): the headers name the
 * same policies, each with its quota. How a throttled route's test checks that its client sees
 * the refusal coming (draft-ietf-httpapi-ratelimit-headers).
 */
export function tightestLeft(answer: CallResult): number {
  const { policy, left } = budgets(answer);
  expect(Object.keys(left).sort(), `RateLimit headers on a ${answer.status}`).toEqual(Object.keys(policy).sort());
  expect(Object.keys(left).length, `RateLimit headers on a ${answer.status}`).toBeGreaterThan(0);
  return Math.min(...Object.values(left).map((budget) => budget.r!));
}
