import type { StageSettings } from '../../infra/stages.ts';

/**
 * Whether the stage's reserved concurrency (infra/concurrency.ts, on with the stage file's
 * `policy.reservedConcurrency`) fits the account, from GetAccountSettings and what the stage's
 * deployed functions reserve now. Lambda refuses a reservation that leaves the account less
 * unreserved concurrency than its minimum: 100, or all of it in an account whose quota is
 * below that (a new account's 10): "decreases account's UnreservedConcurrentExecution below its
 * minimum value of [10]" (https://docs.aws.amazon.com/lambda/latest/dg/configuration-concurrency.html).
 * The quota is raised through Service Quotas, Lambda "Concurrent executions" (L-B99A9384,
 * https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html), which can take days.
 */

/** What a quota of 100 or more keeps unreserved; below it, the whole quota. */
export const MIN_UNRESERVED = 100;
/** Service Quotas' code of Lambda's "Concurrent executions". */
export const CONCURRENCY_QUOTA_CODE = 'L-B99A9384';

export interface AccountConcurrency {
  /** AccountLimit.ConcurrentExecutions: the quota. */
  limit: number;
  /** AccountLimit.UnreservedConcurrentExecutions: the quota less every reservation in the account, this stage's included. */
  unreserved: number;
}

export interface ConcurrencyPlan {
  /** What stays unreserved once the deploy has replaced the stage's reservations with its own. */
  unreservedAfter: number;
  /** The least Lambda lets stay unreserved in this account. */
  minimum: number;
  fits: boolean;
  /** The smallest quota that fits the stage, its reservations and everyone else's (when it does not fit). */
  quotaNeeded: number;
}

/**
 * The arithmetic: the account's unreserved concurrency already excludes what the stage reserves
 * now (a redeploy), so the deploy gives that back before it takes its own.
 */
export function planConcurrency(account: AccountConcurrency, reservedNow: number, reserving: number): ConcurrencyPlan {
  const minimum = Math.min(MIN_UNRESERVED, account.limit);
  const unreservedAfter = account.unreserved + reservedNow - reserving;
  const reservedByOthers = account.limit - account.unreserved - reservedNow;
  return {
    unreservedAfter,
    minimum,
    fits: unreservedAfter >= minimum,
    quotaNeeded: reservedByOthers + reserving + MIN_UNRESERVED,
  };
}

/** The fix for a stage that does not fit: the quota to ask for, and the setting that deploys today. */
export function concurrencyFix(settings: StageSettings, region: string | undefined, quotaNeeded: number): string {
  const command = `aws service-quotas request-service-quota-increase --service-code lambda --quota-code ${CONCURRENCY_QUOTA_CODE} --desired-value ${quotaNeeded}${region ? ` --region ${region}` : ''}`;
  return `request a Lambda "Concurrent executions" quota of ${quotaNeeded} (Service Quotas: ${command}); to deploy today, set policy.reservedConcurrency: false in ${settings.file} and turn it on once the quota is raised`;
}
