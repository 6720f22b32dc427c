import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Config } from '#shared/config';

/**
 * Per-stage settings: the one place where dev, staging and prod differ.
 * Pick a stage with `cdk synth -c stage=dev`; the values marked "context" below can be
 * overridden per deployment (`-c allowedOrigins=https://a.example,https://b.example`),
 * so a developer can point a personal dev stack at their own admin UI without editing
 * this file.
 */
export const STAGE_NAMES = ['dev', 'staging', 'prod'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

export interface StageSettings {
  name: StageName;
  /** Origins of the admin SPA and customer portal: CORS, CSRF and redirect allowlist (context `allowedOrigins`). */
  allowedOrigins: string[];
  /** Where the login callback sends the browser (context `adminUiUrl`); its origin must be allowed. */
  adminUiUrl: string;
  /** The customer portal (context `portalUrl`): customers' verification mails link to `<portalUrl>/verify-email`; its origin must be allowed. */
  portalUrl: string;
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
}

// example.com placeholders until the real domains exist: override with context, not edits.
const STAGES: Record<StageName, StageSettings> = {
  dev: {
    name: 'dev',
    // The admin SPA's Vite dev server may call a deployed dev stack.
    allowedOrigins: ['https://admin.dev.tickets.example.com', 'https://my.dev.tickets.example.com', 'http://localhost:5173'],
    adminUiUrl: 'https://admin.dev.tickets.example.com',
    portalUrl: 'https://my.dev.tickets.example.com',
    logLevel: 'DEBUG',
    // `-c siteAuthMethod=idp` switches a stage to the Cognito hosted UI.
    siteAuthMethod: 'legacy',
    jwtIssuer: 'urn:ticketing:dev',
    emailFrom: 'no-reply@dev.tickets.example.com',
    throttle: { rateLimit: 50, burstLimit: 100 },
    logRetention: RetentionDays.ONE_WEEK,
    retainData: false,
  },
  staging: {
    name: 'staging',
    allowedOrigins: ['https://admin.staging.tickets.example.com', 'https://my.staging.tickets.example.com'],
    adminUiUrl: 'https://admin.staging.tickets.example.com',
    portalUrl: 'https://my.staging.tickets.example.com',
    logLevel: 'INFO',
    siteAuthMethod: 'legacy',
    jwtIssuer: 'urn:ticketing:staging',
    emailFrom: 'no-reply@staging.tickets.example.com',
    throttle: { rateLimit: 200, burstLimit: 400 },
    logRetention: RetentionDays.ONE_MONTH,
    retainData: false,
  },
  prod: {
    name: 'prod',
    allowedOrigins: ['https://admin.tickets.example.com', 'https://my.tickets.example.com'],
    adminUiUrl: 'https://admin.tickets.example.com',
    portalUrl: 'https://my.tickets.example.com',
    logLevel: 'INFO',
    siteAuthMethod: 'legacy',
    jwtIssuer: 'urn:ticketing:prod',
    emailFrom: 'no-reply@tickets.example.com',
    throttle: { rateLimit: 1000, burstLimit: 2000 },
    logRetention: RetentionDays.THREE_MONTHS,
    retainData: true,
  },
};

const LOG_LEVELS: readonly Config['LOG_LEVEL'][] = ['DEBUG', 'INFO', 'WARN', 'ERROR'];
const AUTH_METHODS: readonly Config['SITE_AUTH_METHOD'][] = ['idp', 'legacy'];

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
    throw new StageSettingsError(`${got}: pass -c stage=<${STAGE_NAMES.join('|')}> (valid stages: ${STAGE_NAMES.join(', ')})`);
  }
  const base = STAGES[name];
  const settings: StageSettings = {
    ...base,
    allowedOrigins: list(context('allowedOrigins')) ?? base.allowedOrigins,
    adminUiUrl: text(context('adminUiUrl')) ?? base.adminUiUrl,
    portalUrl: text(context('portalUrl')) ?? base.portalUrl,
    logLevel: oneOf(context('logLevel'), LOG_LEVELS, 'logLevel') ?? base.logLevel,
    siteAuthMethod: oneOf(context('siteAuthMethod'), AUTH_METHODS, 'siteAuthMethod') ?? base.siteAuthMethod,
    emailFrom: text(context('emailFrom')) ?? base.emailFrom,
  };
  checkOrigins(settings);
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
  if (!(allowed as readonly string[]).includes(given)) throw new StageSettingsError(`context ${key}="${given}": expected one of ${allowed.join(', ')}`);
  return given as T;
}

/**
 * Origins are compared verbatim by browsers, CORS and the CSRF check: reject anything
 * that is not exactly `scheme://host[:port]`, and plain http except on localhost.
 */
function checkOrigins(settings: StageSettings): void {
  for (const origin of settings.allowedOrigins) {
    const url = URL.canParse(origin) ? new URL(origin) : undefined;
    if (!url || url.origin !== origin) throw new StageSettingsError(`allowed origin "${origin}" is not of the form scheme://host[:port]`);
    const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
    if (url.protocol !== 'https:' && !local) throw new StageSettingsError(`allowed origin "${origin}" must use https`);
  }
  for (const key of ['adminUiUrl', 'portalUrl'] as const) {
    const origin = URL.canParse(settings[key]) ? new URL(settings[key]).origin : undefined;
    if (!origin || !settings.allowedOrigins.includes(origin)) {
      throw new StageSettingsError(`${key} "${settings[key]}" must be a URL whose origin is one of the allowed origins`);
    }
  }
}
