import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Config } from '#shared/config';
import type { OnSale } from '../sale-capacity.ts';
import type { STAGE_NAMES } from './schema.ts';

/**
 * A stage's settings as the stack reads them: its file (infra/stages/<stage>.ts) with this
 * deploy's `-c` overrides applied and checked, by resolveStage (infra/stages.ts).
 */

export type StageName = (typeof STAGE_NAMES)[number];

export const FRONT_END_NAMES = ['admin', 'portal'] as const;
export type FrontEndName = (typeof FRONT_END_NAMES)[number];

/** Where a front end's files come from at a deploy (the stage file's `files`). */
export type FrontEndFiles = 'none' | 'placeholder' | { path: string };

export interface FrontEndSettings {
  /** Custom domain; else the distribution's own *.cloudfront.net name. */
  domainName?: string;
  files: FrontEndFiles;
}

export interface StageSettings {
  name: StageName;
  /** The stage file, for messages. */
  file: string;
  /** The pinned account and region (staging, prod); dev deploys where the credentials point. */
  env?: { account: string; region: string };
  /**
   * Origins allowed besides the two front ends, e.g. a developer's Vite server proxying /api
   * to a deployed dev stage. The stack adds the front-end origins: ADMIN_ORIGINS = admin front
   * end + these, PORTAL_ORIGINS = portal + these.
   */
  extraOrigins: string[];
  frontEnds: Record<FrontEndName, FrontEndSettings>;
  /** Prebuilt API documentation files (api/v2/openapi.json and api/v2/docs/); else generated at synth. */
  apiDocsPath?: string;
  /** ACM certificate in us-east-1 covering the custom domains; needed when a domain is set. */
  certificateArn?: string;
  /** Route 53 zone for the domains' A/AAAA alias records; without it, create the DNS records yourself. */
  hostedZone?: { id: string; name: string };
  /** A CloudFront-scoped web ACL to attach; without it the stack creates one (only possible in us-east-1). */
  webAclArn?: string;
  /** The stack's web ACL logs to CloudWatch (`aws-waf-logs-ticketing-<stage>`). */
  webAclLogs: boolean;
  /** Secrets Manager version ids the stack pins (the stage file's `secretVersions`, written by `npm run keys`). */
  originVerifyVersion?: string;
  signingKeysVersion?: string;
  logLevel: Config['LOG_LEVEL'];
  /** `legacy` (own password records) or `idp` (Cognito hosted UI). */
  siteAuthMethod: Config['SITE_AUTH_METHOD'];
  /** `iss` of the service's own tokens: stable per stage, so a re-created API keeps sessions valid. */
  jwtIssuer: string;
  /** From address of the service's mail, allowed by the SES identity `sesIdentity`. */
  emailFrom: string;
  /** The stage file's `payments.stripePublishableKey`. */
  stripePublishableKey?: string;
  /** The stage file's `shipping.homeCountry`: domestic-only shipping methods post within it only (SHIPPING_HOME_COUNTRY). */
  homeCountry: string;
  /** The stage file's `seller`: who every invoice names (INVOICE_SELLER, as JSON). */
  seller: { name: string; address: string; taxId: string };
  /** The stage file's `invoiceSeries`: how many series each seller's invoice numbers of a year run in (INVOICE_SERIES). */
  invoiceSeries: number;
  sesIdentity?: string;
  /** Who the alarm topic reaches: subscribed addresses, and existing topics every alarm also notifies. */
  alarmSubscribers: { emails: string[]; topicArns: string[] };
  /** A restored table the stage uses instead of the one it created (README "Restoring the table"). */
  restoredTableName?: string;
  /** The restored table's change stream (the webhooks read it); set exactly when `restoredTableName` is. */
  restoredTableStreamArn?: string;
  /** How many of TABLE_SCHEMA's GSIs the stack declares; undefined: all. */
  tableIndexes?: number;
  /** How many of the declared GSIs take the on-sale's warm throughput (the first N); undefined: all. */
  warmIndexes?: number;
  /** Steady-state requests per second and burst for the whole API (per-account quotas sit above). */
  throttle: { rateLimit: number; burstLimit: number };
  logRetention: RetentionDays;
  /** prod keeps its data (table, bucket, secret, user pool) when the stack is deleted. */
  retainData: boolean;
  /** Deletion protection (table, user pools) and stack termination protection: on once the stage exists. */
  deletionProtection: boolean;
  /** Whether the route functions reserve concurrency (infra/concurrency.ts): on once the account's quota fits it. */
  reservedConcurrency: boolean;
  /** The on-sale the stage is sized for (the sale path's concurrency, the table's warm throughput); none: not sized. */
  onSale?: OnSale;
  /** X-Ray active tracing through Lambda's own integration (no SDK in the bundles): staging and prod. */
  tracing: boolean;
  /** Releases reach 10 % of requests for 5 minutes first, rolled back by alarm (CodeDeploy): staging and prod; dev switches at once. */
  canaryReleases: boolean;
  /** The `-c` keys of this deploy that changed a committed setting. */
  overrides: string[];
}
