import type { LedgerRow } from '#shared/migrations/use-cases/commands';
import type { StageSettings } from '../../infra/stages.ts';
import type { AccountConcurrency } from './concurrency.ts';

/**
 * What preflight's checks (checks.ts and checks-*.ts) judge and answer: the facts read with
 * the deploying credentials (facts.ts), and one finding per check.
 */

/** AWS creates CloudFront-scoped WAF web ACLs, and CloudFront reads ACM certificates, only here. */
export const CLOUDFRONT_REGION = 'us-east-1';

/** A fact read from AWS: its value, or why it could not be read (access denied, not found...). */
export type Read<T> = { value: T } | { error: string };

export interface Facts {
  settings: StageSettings;
  region: string | undefined;
  /** `--account`: the account the deploy is meant for (optional). */
  expectedAccount?: string;
  account: Read<string>;
  /** SES identities, looked up by the sender's address and by its domain; `null`: no such identity. */
  sesAddress: Read<{ verified: boolean } | null>;
  sesDomain: Read<{ verified: boolean } | null>;
  sesAccount: Read<{ productionAccess: boolean; sendingEnabled: boolean }>;
  /** The stage's signing-key secret (`npm run keys`) and its version ids; `null`: it does not exist. */
  signingKeys: Read<{ hasCurrentVersion: boolean; versions?: string[] } | null>;
  /** The stage's origin-verify secret's version ids (made by the first deploy); `null`: none yet. */
  originVerify?: Read<{ versions: string[] } | null>;
  /** The account's Lambda concurrency (GetAccountSettings). */
  lambdaConcurrency: Read<AccountConcurrency>;
  /** What the stage's deployed functions reserve now (0 before its first deploy). */
  reservedNow?: Read<number>;
  /** DynamoDB's table-level throughput quota (DescribeLimits), read for a stage sized for an on-sale. */
  dynamoLimits?: Read<{ tableMaxReadUnits: number; tableMaxWriteUnits: number }>;
  /** What this deploy's functions will reserve (infra/concurrency.ts stageReservations). */
  reservedByStage: number;
  /** The web ACL the stage file names (WAFv2, CloudFront scope); `null`: no such web ACL. */
  webAcl?: Read<{ name: string } | null>;
  /** The stage's certificate (ACM in us-east-1), when it names one; `null`: no such certificate. */
  certificate?: Read<{ status: string; names: string[] } | null>;
  /** The stage's Route 53 zone, when it names one; `null`: no such zone. */
  hostedZone?: Read<{ name: string } | null>;
  /** The existing SNS topics the alarms notify; `null`: no such topic. */
  alarmTopics?: Read<{ arn: string; exists: boolean }[]>;
  /** The stage's ledger and its table's GSIs, read from the table (infra/migrations.ts); `null`: no runner yet (a first deploy). */
  migrations?: Read<RunnerStatus | null>;
}

/** The data migrations' ledger and the deployed table's GSIs. */
export interface RunnerStatus {
  ledger: LedgerRow[];
  tableIndexes: string[];
}

/**
 * `unknown`: the check could not be made (access denied, throttled, unreachable). Never a pass:
 * a run with one is not ready to deploy, as one with a `fail`.
 */
export type Verdict = 'ok' | 'warn' | 'fail' | 'unknown';

export interface Finding {
  check: string;
  verdict: Verdict;
  message: string;
  /** What to do about it, when something is. */
  fix?: string;
}

export const unreadable = (check: string, error: string, fix: string): Finding => ({
  check,
  verdict: 'unknown',
  message: `could not be checked: ${error}`,
  fix,
});
