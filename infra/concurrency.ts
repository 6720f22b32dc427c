import type { RouteRow } from '#shared/routes';
import { SALE_FUNCTIONS, type SaleFunction, saleConcurrency } from './sale-capacity.ts';
import type { StageSettings } from './stages.ts';

/**
 * Reserved concurrency per route function, from its row (README "Operations", limits).
 * Reserving both caps a function and guarantees it that much of the account's pool:
 * - the gate's three routes (the check-in, `POST /scans`, `GET /gate-lists/{eventId}`) each get a guarantee
 *   of their own, so no other route can starve them, and devices reconnecting together at a rush (a burst of
 *   uploads, every phone fetching its list before the doors open) take only the gate's reservation, never the
 *   pool every other route shares;
 * - login-type public rows, the photo upload and the two ticket lists get caps, so a
 *   credential-stuffing burst, a run of 12 MP photos or a crawl of deep pages cannot take the
 *   concurrency every other route shares;
 * - every other route takes a few ms per request and shares the unreserved pool (a cap would
 *   only add throttles);
 * - a stage whose file says `policy.reservedConcurrency: false` reserves nothing (dev, and any
 *   stage in an account whose quota is still the new account's 10): Lambda refuses a reservation
 *   that leaves less than 100 unreserved, or the account's minimum below that
 *   (https://docs.aws.amazon.com/lambda/latest/dg/configuration-concurrency.html), and the deploy fails.
 *   Preflight (bin/preflight/concurrency.ts) reads the account's quota and says when it fits.
 * - a stage sized for an on-sale (`policy.onSale`) reserves the sale path's functions (the hold, the checkout, the
 *   Stripe webhook, and the issuing consumer, infra/paid-order-issuing.ts) what the sale needs (infra/sale-capacity.ts:
 *   Little's law, twice the mean): a guarantee, so the rush's own other routes (pages, lists) cannot starve the sale,
 *   and a cap at twice the rush, so a runaway client's holds cannot take the account's pool;
 * - the other functions that are not routes (migration runner, webhooks) reserve nothing.
 * A capped function that hits its number is throttled (API Gateway answers 503) and its
 * `<route>-throttles` alarm fires.
 */
export interface ConcurrencyPlan {
  /** undefined: the function shares the unreserved pool. */
  reserved?: number;
  reason: string;
}

/** prod / staging numbers (dev, when its file turns reservations on, takes staging's). */
const RESERVED = {
  gate: { prod: 50, staging: 10 },
  /** The offline list: fetched once per device before the doors open, then by `changedSince`. */
  gateList: { prod: 20, staging: 5 },
  login: { prod: 10, staging: 3 },
  photo: { prod: 10, staging: 2 },
  list: { prod: 25, staging: 5 },
} as const;

const LISTS = new Set(['tickets/list', 'ticket/list']);
/** The gate's routes and what each reserves: the single scan, the batch upload, the offline list. */
const GATE: Readonly<Record<string, keyof typeof RESERVED>> = {
  'tickets/check-in': 'gate',
  'gate/scans': 'gate',
  'gate/gate-list': 'gateList',
};

export function concurrencyOf(
  row: Pick<RouteRow, 'handler' | 'auth'>,
  settings: Pick<StageSettings, 'name' | 'reservedConcurrency' | 'onSale'>,
): ConcurrencyPlan {
  if (!settings.reservedConcurrency)
    return { reason: "the stage file reserves none (policy.reservedConcurrency: a new account's quota is 10)" };
  const sale = saleFunctionOf(row.handler);
  if (sale && settings.onSale)
    return {
      reserved: saleConcurrency(settings.onSale)[sale],
      reason: "the sale's path, sized for the stage's on-sale",
    };
  const stage = settings.name === 'prod' ? 'prod' : 'staging';
  const gate = GATE[row.handler];
  if (gate) return { reserved: RESERVED[gate][stage], reason: 'the gate: guaranteed capacity of its own at a rush' };
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

/** The sale function a route's handler or a job's name is, if any. */
const saleFunctionOf = (handler: string): SaleFunction | undefined =>
  (Object.keys(SALE_FUNCTIONS) as SaleFunction[]).find((fn) => SALE_FUNCTIONS[fn] === handler);

/** The issuing consumer's reservation (a job, not a route): the sale's, or none on a stage not sized for one. */
export const issuingConcurrency = (
  settings: Pick<StageSettings, 'reservedConcurrency' | 'onSale'>,
): number | undefined =>
  settings.reservedConcurrency && settings.onSale ? saleConcurrency(settings.onSale).issue : undefined;

/** What the stage's functions reserve together: every route's reservation and the issuing consumer's (the others reserve none). */
export const stageReservations = (
  rows: readonly RouteRow[],
  settings: Pick<StageSettings, 'name' | 'reservedConcurrency' | 'onSale'>,
): number =>
  rows.reduce((sum, row) => sum + (concurrencyOf(row, settings).reserved ?? 0), 0) +
  (issuingConcurrency(settings) ?? 0);
