import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Config } from '#shared/config';

/**
 * Per-stage settings: the one place where dev, staging and prod differ.
 * Pick a stage with `cdk synth -c stage=dev`; the values marked "context" below can be
 * overridden per deployment (`-c adminDomain=admin.example.com`, `-c extraOrigins=...`)
 * without editing this file. The front-end origins themselves are not settings: they are
 * the stage's CloudFront distributions (or their custom domains), see infra/front-ends.ts.
 */
export const STAGE_NAMES = ['dev', 'staging', 'prod'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

export const FRONT_END_NAMES = ['admin', 'portal'] as const;
export type FrontEndName = (typeof FRONT_END_NAMES)[number];

export interface FrontEndSettings {
  /** Custom domain (context `adminDomain` / `portalDomain`); else the distribution's own *.cloudfront.net name. */
  domainName?: string;
  /** Built SPA files to deploy (context `adminAssets` / `portalAssets`); else infra/pages/<name>/. */
  assetsPath?: string;
}

export interface StageSettings {
  name: StageName;
  /**
   * Origins allowed besides the two front ends (context `extraOrigins`, comma list), e.g. a
   * developer's Vite server proxying /api to a deployed dev stage. The front-end origins are
   * added by the stack: ADMIN_ORIGINS = admin front end + these, PORTAL_ORIGINS = portal + these.
   */
  extraOrigins: string[];
  frontEnds: Record<FrontEndName, FrontEndSettings>;
  /**
   * Prebuilt API documentation files (context `apiDocs`: a directory holding api/v2/openapi.json
   * and api/v2/docs/, as `tsx bin/api-docs.ts <dir>` writes them); else generated at synth.
   */
  apiDocsPath?: string;
  /** ACM certificate in us-east-1 covering the custom domains (context `certificateArn`); needed when a domain is set. */
  certificateArn?: string;
  /** Route 53 zone for the domains' A/AAAA alias records (context `hostedZoneId` + `hostedZoneName`); without it, create the DNS records yourself. */
  hostedZone?: { id: string; name: string };
  /**
   * A CloudFront-scoped WAF web ACL to attach (context `webAclArn`). Without it the stack
   * creates one, which AWS allows only in us-east-1: the stack then refuses to deploy elsewhere.
   */
  webAclArn?: string;
  /** Secrets Manager version id of the origin-verify secret to pin (context `originVerifyVersion`): set by a rotation (README). */
  originVerifyVersion?: string;
  /** context `logLevel` */
  logLevel: Config['LOG_LEVEL'];
  /** `legacy` (own password records) or `idp` (Cognito hosted UI); context `siteAuthMethod`. */
  siteAuthMethod: Config['SITE_AUTH_METHOD'];
  /** `iss` of the service's own tokens: stable per stage, so a re-created API keeps sessions valid. */
  jwtIssuer: string;
  /** From address of the service's mail; its domain must be a verified SES identity (context `emailFrom`). */
  emailFrom: string;
  /** Steady-state requests per second and burst for the whole API (per-account quotas sit above). */
  throttle: { rateLimit: number; burstLimit: number };
  logRetention: RetentionDays;
  /** prod keeps its data (table, bucket, secret, user pool) when the stack is deleted, and refuses table deletion. */
  retainData: boolean;
  /** X-Ray active tracing through Lambda's own integration (no SDK in the bundles): staging and prod. */
  tracing: boolean;
  /** Releases reach 10 % of requests for 5 minutes first, rolled back by alarm (CodeDeploy): staging and prod; dev switches at once. */
  canaryReleases: boolean;
}

// The mail sender is a placeholder until the stage's SES identity exists: `-c emailFrom=...`.
const STAGES: Record<StageName, StageSettings> = {
  dev: {
    name: 'dev',
    // An SPA's Vite dev server (either loopback name) may call a deployed dev stack.
    extraOrigins: ['http://localhost:5173', 'http://127.0.0.1:5173'],
    frontEnds: { admin: {}, portal: {} },
    logLevel: 'DEBUG',
    // `-c siteAuthMethod=idp` switches a stage to the Cognito hosted UI.
    siteAuthMethod: 'legacy',
    jwtIssuer: 'urn:ticketing:dev',
    emailFrom: 'no-reply@dev.tickets.example.com',
    throttle: { rateLimit: 50, burstLimit: 100 },
    logRetention: RetentionDays.ONE_WEEK,
    retainData: false,
    tracing: false,
    canaryReleases: false,
  },
  staging: {
    name: 'staging',
    extraOrigins: [],
    frontEnds: { admin: {}, portal: {} },
    logLevel: 'INFO',
    siteAuthMethod: 'legacy',
    jwtIssuer: 'urn:ticketing:staging',
    emailFrom: 'no-reply@staging.tickets.example.com',
    throttle: { rateLimit: 200, burstLimit: 400 },
    logRetention: RetentionDays.ONE_MONTH,
    retainData: false,
    tracing: true,
    canaryReleases: true,
  },
  prod: {
    name: 'prod',
    extraOrigins: [],
    frontEnds: { admin: {}, portal: {} },
    logLevel: 'INFO',
    siteAuthMethod: 'legacy',
    jwtIssuer: 'urn:ticketing:prod',
    emailFrom: 'no-reply@tickets.example.com',
    throttle: { rateLimit: 1000, burstLimit: 2000 },
    logRetention: RetentionDays.THREE_MONTHS,
    retainData: true,
    tracing: true,
    canaryReleases: true,
  },
};

const LOG_LEVELS: readonly Config['LOG_LEVEL'][] = ['DEBUG', 'INFO', 'WARN', 'ERROR'];
const AUTH_METHODS: readonly Config['SITE_AUTH_METHOD'][] = ['idp', 'legacy'];

/** What deleting the stack does to the stage's data (table, buckets, secrets, user pools, logs): `retainData` keeps it. */
export function removalPolicyOf(settings: StageSettings): RemovalPolicy {
  return settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
}

/** A wrong stage name or setting: a usage error, reported without a stack trace. */
export class StageSettingsError extends Error {
  override name = 'StageSettingsError';
}

/** Reads a context value; `undefined` when absent. */
export type ContextReader = (key: string) => unknown;

/**
 * The settings of the stage named by the `stage` context, with context overrides applied
 * and checked. Throws a message listing the valid stages when the name is missing or wrong.
 */
export function resolveStage(context: ContextReader): StageSettings {
  const name = context('stage');
  if (typeof name !== 'string' || !isStageName(name)) {
    const got = name === undefined ? 'no stage' : `unknown stage "${String(name)}"`;
    throw new StageSettingsError(
      `${got}: pass -c stage=<${STAGE_NAMES.join('|')}> (valid stages: ${STAGE_NAMES.join(', ')})`,
    );
  }
  const base = STAGES[name];
  const settings: StageSettings = {
    ...base,
    extraOrigins: list(context('extraOrigins')) ?? base.extraOrigins,
    frontEnds: {
      admin: { domainName: text(context('adminDomain')), assetsPath: text(context('adminAssets')) },
      portal: { domainName: text(context('portalDomain')), assetsPath: text(context('portalAssets')) },
    },
    apiDocsPath: text(context('apiDocs')),
    certificateArn: text(context('certificateArn')),
    hostedZone: hostedZone(context),
    webAclArn: text(context('webAclArn')),
    originVerifyVersion: text(context('originVerifyVersion')),
    logLevel: oneOf(context('logLevel'), LOG_LEVELS, 'logLevel') ?? base.logLevel,
    siteAuthMethod: oneOf(context('siteAuthMethod'), AUTH_METHODS, 'siteAuthMethod') ?? base.siteAuthMethod,
    emailFrom: text(context('emailFrom')) ?? base.emailFrom,
  };
  checkOrigins(settings);
  checkDomains(settings);
  return settings;
}

function isStageName(value: string): value is StageName {
  return (STAGE_NAMES as readonly string[]).includes(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** `-c` gives a comma-separated string; cdk.json may give an array. */
function list(value: unknown): string[] | undefined {
  const items = Array.isArray(value) ? value.map(String) : text(value)?.split(',');
  const cleaned = items?.map((item) => item.trim()).filter(Boolean);
  return cleaned && cleaned.length > 0 ? cleaned : undefined;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], key: string): T | undefined {
  const given = text(value);
  if (given === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(given))
    throw new StageSettingsError(`context ${key}="${given}": expected one of ${allowed.join(', ')}`);
  return given as T;
}

function hostedZone(context: ContextReader): StageSettings['hostedZone'] {
  const id = text(context('hostedZoneId'));
  const name = text(context('hostedZoneName'));
  if (!id && !name) return undefined;
  if (!id || !name)
    throw new StageSettingsError(
      'context hostedZoneId and hostedZoneName go together (the Route 53 zone of the custom domains)',
    );
  return { id, name };
}

/**
 * Origins are compared verbatim by browsers, CORS and the CSRF check: reject anything
 * that is not exactly `scheme://host[:port]`, and plain http except on localhost. Only the
 * literal extra origins are checked here; the front-end origins are the distributions'
 * (deploy-time tokens) or `https://<custom domain>`.
 */
function checkOrigins(settings: StageSettings): void {
  for (const origin of settings.extraOrigins) {
    const url = URL.canParse(origin) ? new URL(origin) : undefined;
    if (!url || url.origin !== origin)
      throw new StageSettingsError(`extra origin "${origin}" is not of the form scheme://host[:port]`);
    const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
    if (url.protocol !== 'https:' && !local) throw new StageSettingsError(`extra origin "${origin}" must use https`);
  }
}

/** A custom domain is a bare host name with a CloudFront certificate, which must live in us-east-1. */
function checkDomains(settings: StageSettings): void {
  const domains = FRONT_END_NAMES.map((name) => [name, settings.frontEnds[name].domainName] as const).filter(
    ([, domain]) => domain,
  );
  for (const [name, domain] of domains) {
    if (!/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(domain!))
      throw new StageSettingsError(`${name}Domain "${domain}" must be a host name (no scheme, port or path)`);
  }
  if (domains.length > 0 && !settings.certificateArn) {
    throw new StageSettingsError('a custom domain needs -c certificateArn=<ACM certificate in us-east-1 covering it>');
  }
  if (
    settings.certificateArn &&
    !/^arn:aws[\w-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/.test(settings.certificateArn)
  ) {
    throw new StageSettingsError(
      `certificateArn "${settings.certificateArn}" must be an ACM certificate ARN in us-east-1 (CloudFront reads certificates only there)`,
    );
  }
  if (settings.originVerifyVersion && !/^[\w-]{32,64}$/.test(settings.originVerifyVersion)) {
    throw new StageSettingsError(
      `originVerifyVersion "${settings.originVerifyVersion}" must be a Secrets Manager version id (put-secret-value prints it)`,
    );
  }
  if (settings.webAclArn && !/^arn:aws[\w-]*:wafv2:us-east-1:\d{12}:global\/webacl\/.+/.test(settings.webAclArn)) {
    throw new StageSettingsError(
      `webAclArn "${settings.webAclArn}" must be a CloudFront-scoped (global) WAFv2 web ACL ARN in us-east-1`,
    );
  }
}
