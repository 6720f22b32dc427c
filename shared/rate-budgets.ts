import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The rate-limit budgets a request was counted against, as the IETF RateLimit fields
 * describe them (draft-ietf-httpapi-ratelimit-headers): the limits in shared/data
 * (rate-limits.ts, login-throttle.ts) record each window they count, and the HTTP stack
 * (shared/http/rate-limit-headers.ts) answers them as `RateLimit-Policy` and `RateLimit`,
 * on the success and on the refusal alike. Neither side imports the other.
 */
export interface CountedBudget {
  /** The policy's name: the window's, lower-cased (`forgot_password_client`). */
  policy: string;
  /** Units (requests, or failed attempts on a login) the window allows. */
  quota: number;
  windowSeconds: number;
  /** Units left after this request. */
  remaining: number;
  /** Seconds until the window gives a unit back (the oldest counted one leaves it, or a lock-out ends). */
  resetSeconds: number;
}

// A store per request: the local server and the tests run many requests in one process at once.
const budgets = new AsyncLocalStorage<Map<string, CountedBudget>>();

/** Runs `work`, collecting into `into` every budget it counts (the last count of a policy wins). */
export function countingBudgets<T>(into: Map<string, CountedBudget>, work: () => Promise<T>): Promise<T> {
  return budgets.run(into, work);
}

/** Records a counted budget for the request under way; outside one (scripts, the seed) it is dropped. */
export function recordBudget(budget: CountedBudget): void {
  budgets.getStore()?.set(budget.policy.toLowerCase(), { ...budget, policy: budget.policy.toLowerCase() });
}

/**
 * Units given back after they were counted (a reservation released, a right password that
 * forgets the failures): the request's recorded budget of the policy goes up by `units`, at
 * most to its quota, so the headers say what is really left.
 */
export function giveBackBudget(policy: string, units = 1): void {
  const store = budgets.getStore();
  const counted = store?.get(policy.toLowerCase());
  if (store && counted)
    store.set(counted.policy, { ...counted, remaining: Math.min(counted.quota, counted.remaining + units) });
}
