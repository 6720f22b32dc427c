import type { RouteRow } from '#shared/routes';
import type { StageName } from './stages.ts';

/**
 * Reserved concurrency per route function, from its row (README "Operations", limits).
 * Reserving both caps a function and guarantees it that much of the account's pool:
 * - the gate (`POST /tickets/{id}/check-in`) gets a guarantee, so no other route can starve it;
 * - login-type public rows, the photo upload and the two ticket lists get caps, so a
 *   credential-stuffing burst, a run of 12 MP photos or a crawl of deep pages cannot take the
 *   concurrency every other route shares;
 * - every other route takes a few ms per request and shares the unreserved pool (a cap would
 *   only add throttles);
 * - dev reserves nothing: a new account's Lambda quota can be as low as 10, below which a
 *   reservation fails the deploy (AWS keeps 100 unreserved).
 * A capped function that hits its number is throttled (API Gateway answers 503) and its
 * `<route>-throttles` alarm fires.
 */
export interface ConcurrencyPlan {
  /** undefined: the function shares the unreserved pool. */
  reserved?: number;
  reason: string;
}

/** prod / staging numbers (dev: none). */
const RESERVED = {
  gate: { prod: 50, staging: 10 },
  login: { prod: 10, staging: 3 },
  photo: { prod: 10, staging: 2 },
  list: { prod: 25, staging: 5 },
} as const;

const LISTS = new Set(['tickets/list', 'ticket/list']);

export function concurrencyOf(row: RouteRow, stage: StageName): ConcurrencyPlan {
  if (stage === 'dev')
    return { reason: "dev reserves nothing (a new account's quota may be below what a reservation needs)" };
  if (row.handler === 'tickets/check-in')
    return { reserved: RESERVED.gate[stage], reason: 'the gate: guaranteed capacity at a rush' };
  if (row.auth.kind === 'public')
    return {
      reserved: RESERVED.login[stage],
      reason: 'login-type and unauthenticated: capped against bursts of guesses',
    };
  if (row.handler === 'tickets/profile-photo')
    return { reserved: RESERVED.photo[stage], reason: 'decodes and re-encodes images: seconds of CPU at 2 GB each' };
  if (LISTS.has(row.handler))
    return { reserved: RESERVED.list[stage], reason: 'the heaviest reads (up to 2,000 index items a page)' };
  return { reason: 'a few ms per request: shares the unreserved pool' };
}
