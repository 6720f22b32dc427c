import type { StageFile } from './schema.ts';
import { StageSettingsError } from './schema.ts';

/**
 * The `-c` side of the stage settings (infra/stages.ts resolveStage): which context key changes
 * which setting of a stage file, and how a context value is read.
 */

export type Kind = 'text' | 'list' | 'number';

/**
 * The `-c` key of each setting (its path in the stage file). `-c key=` (empty) removes the
 * setting for that deploy. Not here: `policy`, which only a change of the file alters.
 */
export const OVERRIDES: Record<string, { path: readonly string[]; kind: Kind }> = {
  account: { path: ['env', 'account'], kind: 'text' },
  region: { path: ['env', 'region'], kind: 'text' },
  adminDomain: { path: ['frontEnds', 'admin', 'domain'], kind: 'text' },
  portalDomain: { path: ['frontEnds', 'portal', 'domain'], kind: 'text' },
  adminAssets: { path: ['frontEnds', 'admin', 'files'], kind: 'text' },
  portalAssets: { path: ['frontEnds', 'portal', 'files'], kind: 'text' },
  certificateArn: { path: ['certificateArn'], kind: 'text' },
  hostedZoneId: { path: ['hostedZone', 'id'], kind: 'text' },
  hostedZoneName: { path: ['hostedZone', 'name'], kind: 'text' },
  emailFrom: { path: ['mail', 'from'], kind: 'text' },
  sesIdentity: { path: ['mail', 'sesIdentity'], kind: 'text' },
  alarmEmail: { path: ['alarms', 'emails'], kind: 'list' },
  alarmTopicArn: { path: ['alarms', 'topicArns'], kind: 'list' },
  webAclArn: { path: ['webAclArn'], kind: 'text' },
  extraOrigins: { path: ['extraOrigins'], kind: 'list' },
  siteAuthMethod: { path: ['siteAuthMethod'], kind: 'text' },
  logLevel: { path: ['logLevel'], kind: 'text' },
  homeCountry: { path: ['shipping', 'homeCountry'], kind: 'text' },
  sellerName: { path: ['seller', 'name'], kind: 'text' },
  sellerAddress: { path: ['seller', 'address'], kind: 'text' },
  sellerTaxId: { path: ['seller', 'taxId'], kind: 'text' },
  invoiceSeries: { path: ['invoiceSeries'], kind: 'number' },
  signingKeysVersion: { path: ['secretVersions', 'signingKeys'], kind: 'text' },
  originVerifyVersion: { path: ['secretVersions', 'originVerify'], kind: 'text' },
  tableName: { path: ['table', 'restoredName'], kind: 'text' },
  tableStreamArn: { path: ['table', 'restoredStreamArn'], kind: 'text' },
  tableIndexes: { path: ['table', 'indexes'], kind: 'number' },
  warmIndexes: { path: ['table', 'warmIndexes'], kind: 'number' },
  apiDocs: { path: ['apiDocs'], kind: 'text' },
};

/** Context keys that are neither a setting nor `stage`, in the shape settings have (CDK's own keys have `:` or `@`). */
export function unknownContextKeys(keys: readonly string[]): string[] {
  return keys.filter((key) => /^[a-z][A-Za-z0-9]*$/.test(key) && key !== 'stage' && !(key in OVERRIDES));
}

/** The `-c` flags that say the same as a stage file (for a test, and to show what a deploy uses). */
export function contextOf(file: StageFile): Record<string, string> {
  const context: Record<string, string> = { stage: file.name };
  for (const [key, { path }] of Object.entries(OVERRIDES)) {
    const value = valueAt(file, path);
    if (value === undefined) continue;
    context[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return context;
}

export function parseContext(raw: unknown, kind: Kind, key: string): unknown {
  if (kind === 'list') {
    const items = Array.isArray(raw) ? raw.map(String) : String(raw).split(',');
    return items.map((item) => item.trim()).filter(Boolean);
  }
  const text = typeof raw === 'string' ? raw.trim() : raw;
  if (text === '' || text === null) return undefined;
  if (kind === 'number') {
    const number = Number(text);
    if (!Number.isInteger(number)) throw new StageSettingsError(`-c ${key}="${String(raw)}" is not a whole number`);
    return number;
  }
  return String(text);
}

export function valueAt(object: Record<string, unknown>, path: readonly string[]): unknown {
  return path.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], object);
}

export function setAt(object: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at = object;
  for (const key of path.slice(0, -1)) {
    at[key] ??= {};
    at = at[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) delete at[last];
  else at[last] = value;
}
