import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as z from 'zod';
import { COUNTRY_CODE_MESSAGE, isCountryCode } from '#shared/domain/countries';
import { MAX_INVOICE_SERIES } from '#shared/selling/domain/invoice';

/**
 * What a stage file (infra/stages/<stage>.ts) holds, checked when the app starts. Two parts:
 * the settings of the account the stage lives in (every one can be overridden for one deploy
 * with `-c`, infra/stages.ts OVERRIDES), and `policy`, how the stage is run (throttles,
 * retention, canaries), which only a reviewed change of the file alters.
 */

export const STAGE_NAMES = ['dev', 'staging', 'prod'] as const;

const HOST = /^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/i;
const host = z.string().regex(HOST, 'must be a host name (no scheme, port or path)');
/** A Secrets Manager version id, as `put-secret-value` and `npm run keys` print it. */
const versionId = z
  .string()
  .regex(/^[\w-]{32,64}$/, 'must be a Secrets Manager version id (put-secret-value prints it)');

const frontEnd = z
  .object({
    /** The front end's custom domain; without one it answers on its *.cloudfront.net name. */
    domain: z.optional(host),
    /**
     * Where the built SPA comes from at a deploy: `'none'` (the stack leaves the bucket's files
     * as they are: they are deployed by the front end's own release), `'placeholder'` (the pages
     * in infra/pages/<name>/), or a directory of built files holding an index.html.
     */
    files: z.string().min(1),
  })
  .strict();

export const StageFileSchema = z
  .object({
    name: z.enum(STAGE_NAMES),
    /** The stage's AWS account and region: credentials for another account fail at `cdk deploy`. Required in staging and prod. */
    env: z.optional(
      z
        .object({
          account: z.string().regex(/^\d{12}$/, 'must be a 12-digit AWS account id'),
          region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'must be an AWS region such as us-east-1'),
        })
        .strict(),
    ),
    frontEnds: z.object({ admin: frontEnd, portal: frontEnd }).strict(),
    /** ACM certificate in us-east-1 covering the custom domains (CloudFront reads certificates only there). */
    certificateArn: z.optional(
      z
        .string()
        .regex(
          /^arn:aws[\w-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/,
          'must be an ACM certificate ARN in us-east-1 (CloudFront reads certificates only there)',
        ),
    ),
    /** The Route 53 zone of the custom domains: the stack writes their alias records there. */
    hostedZone: z.optional(
      z.object({ id: z.string().regex(/^Z[A-Z0-9]+$/, 'must be a Route 53 hosted zone id'), name: host }).strict(),
    ),
    mail: z
      .object({
        /** The From address of the service's mail. */
        from: z.email(),
        /** The SES identity (the sender's domain or address) that allows it: checked by preflight. */
        sesIdentity: z.optional(z.string().min(1)),
      })
      .strict(),
    /** Who alarms reach: addresses (the topic subscribes them), and existing SNS topics (a pager, a chat integration). */
    alarms: z
      .object({
        emails: z.array(z.email()),
        topicArns: z.array(
          z.string().regex(/^arn:aws[\w-]*:sns:[a-z0-9-]+:\d{12}:[\w-]+$/, 'must be an SNS topic ARN'),
        ),
      })
      .strict(),
    /** A CloudFront-scoped web ACL of your own; without one the stack creates it (then the stage must be in us-east-1). */
    webAclArn: z.optional(
      z
        .string()
        .regex(
          /^arn:aws[\w-]*:wafv2:us-east-1:\d{12}:global\/webacl\/.+/,
          'must be a CloudFront-scoped (global) WAFv2 web ACL ARN in us-east-1',
        ),
    ),
    /** Origins allowed besides the two front ends (dev: a Vite server proxying /api). */
    extraOrigins: z.array(z.string()),
    siteAuthMethod: z.enum(['idp', 'legacy']),
    logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']),
    /**
     * Stripe's publishable key (`pk_test_…`/`pk_live_…`): public, given to the buyer's browser, so it lives here; the
     * secret key and webhook secret are the stage's secret (`npm run keys -- stripe`). Absent: the payment
     * routes have no publishable key to give (the portal cannot pay), the webhook still verifies.
     */
    payments: z.optional(
      z
        .object({ stripePublishableKey: z.string().regex(/^pk_(test|live)_\w+$/, 'must be a Stripe publishable key') })
        .strict(),
    ),
    /**
     * Where the stage posts tickets to by default: `homeCountry` (ISO 3166-1 alpha-2) is the domestic country of the
     * shipping methods whose `allowInternational` is false (the checkout refuses another `shippingCountry`).
     */
    shipping: z.object({ homeCountry: z.string().refine(isCountryCode, COUNTRY_CODE_MESSAGE) }).strict(),
    /**
     * Who sells, as every invoice and credit note of the stage names it (shared/README.md "Invoices"): its name,
     * postal address and tax id (VAT number). Its tax id (else its name) keys its gapless numbers.
     */
    seller: z
      .object({ name: z.string().min(1).max(200), address: z.string().max(400), taxId: z.string().max(40) })
      .strict(),
    /**
     * How many series the seller's invoice numbers of a year run in (a letter each: `2027-C-000042`), each gapless
     * with a counter item of its own that every numbering transaction of its series writes. Size it so that the
     * on-sale's paid orders a second over the series stay under the 50 transactions a second one item takes, even
     * when each transaction numbers one order (shared/README.md "Invoices"). Raising it later is safe: a new series
     * starts at 1 and an old number keeps its letter.
     */
    invoiceSeries: z.number().int().min(1).max(MAX_INVOICE_SERIES),
    /** The secret versions the stack pins (written here by `npm run keys`; README "Rotating the signing key"). */
    secretVersions: z.object({ signingKeys: z.optional(versionId), originVerify: z.optional(versionId) }).strict(),
    table: z
      .object({
        /** A table restored from a backup (README "Restoring the table"): the stage uses it instead of its own. */
        restoredName: z.optional(z.string().regex(/^[\w.-]{3,255}$/, 'must be a DynamoDB table name')),
        /**
         * The restored table's change stream, which the webhooks read: a restore has none, so enable one
         * (NEW_AND_OLD_IMAGES) before the switch and copy its `LatestStreamArn` here. Required with restoredName.
         */
        restoredStreamArn: z.optional(
          z
            .string()
            .regex(
              /^arn:aws[\w-]*:dynamodb:[a-z0-9-]+:\d{12}:table\/[\w.-]{3,255}\/stream\/[\w.:-]+$/,
              'must be a DynamoDB stream ARN (describe-table prints it as LatestStreamArn)',
            ),
        ),
        /** How many of TABLE_SCHEMA's GSIs to declare (one added per update); absent: all. */
        indexes: z.optional(z.number().int().min(0)),
        /**
         * How many of the declared GSIs (the first N) take the on-sale's warm throughput; absent: all. A release
         * changes at most one GSI's declaration (bin/release/review.ts), so a stage warms its indexes one per deploy.
         */
        warmIndexes: z.optional(z.number().int().min(0)),
      })
      .strict(),
    /** Prebuilt API documentation (a directory from `tsx bin/api-docs.ts <dir>`); absent: generated at synth. */
    apiDocs: z.optional(z.string().min(1)),
    policy: z
      .object({
        /** `iss` of the service's tokens: stable per stage, so a re-created API keeps sessions valid. */
        jwtIssuer: z.string().min(1),
        /** Steady-state requests per second and burst for the whole API. */
        throttle: z.object({ rateLimit: z.number().positive(), burstLimit: z.number().positive() }).strict(),
        logRetention: z.enum(RetentionDays),
        /** Keep the data (table, buckets, secrets, pools) when the stack is deleted; a failed first deploy still removes it. */
        retainData: z.boolean(),
        /**
         * Deletion protection on the table and the user pools, and termination protection on the stack.
         * Off for a stage's first deploy, so that a failed create rolls back to nothing; preflight asks for
         * it once the stage exists (README "Deploying"). Only with retainData.
         */
        deletionProtection: z.boolean(),
        /**
         * The route functions' reserved concurrency (infra/concurrency.ts). Off in a new account (quota 10):
         * preflight says when the account's quota fits it.
         */
        reservedConcurrency: z.boolean(),
        /**
         * The on-sale the stage is sized for (infra/sale-capacity.ts): how many events sell at once and each one's
         * holds and paid orders a second. It sets the sale path's reserved concurrency and the table's warm
         * throughput; absent, neither (a stage that takes no rush pays for no warm table). Needs reservedConcurrency.
         */
        onSale: z.optional(
          z
            .object({
              events: z.int().min(1),
              holdsPerSecond: z.number().positive(),
              paidOrdersPerSecond: z.number().positive(),
            })
            .strict(),
        ),
        /** X-Ray active tracing through Lambda's own integration. */
        tracing: z.boolean(),
        /** Releases reach 10 % of requests for 5 minutes first, rolled back by alarm (CodeDeploy). */
        canaryReleases: z.boolean(),
        /** The web ACL's requests logged to CloudWatch (`aws-waf-logs-…`, Authorization and Cookie redacted). */
        webAclLogs: z.boolean(),
      })
      .strict()
      .refine((policy) => !policy.onSale || policy.reservedConcurrency, {
        message: 'onSale needs reservedConcurrency (its sizing is reserved concurrency)',
        path: ['onSale'],
      })
      .refine((policy) => policy.retainData || !policy.deletionProtection, {
        message: 'deletionProtection needs retainData (a protected resource the stack deletes cannot be deleted)',
        path: ['deletionProtection'],
      }),
  })
  .strict();

export type StageFile = z.input<typeof StageFileSchema>;

/** Types a stage file's contents (checked by StageFileSchema when the app starts). */
export const defineStage = (file: StageFile): StageFile => file;

/** A wrong stage name or setting: a usage error, reported in one line without a stack trace. */
export class StageSettingsError extends Error {
  override name = 'StageSettingsError';
}
