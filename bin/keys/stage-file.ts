import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { STAGE_FILES } from '../../infra/stages.ts';

/**
 * Where `npm run keys` writes a stage's secret: `--region` when given, else the region the stage
 * file pins (the region its deploy goes to and its functions read the secret in), else the
 * shell's (dev, which is not pinned). The shell's AWS_REGION alone would put a pinned stage's
 * secret where the stack never looks.
 */
export function keysRegion(stage: string, given?: string): string | undefined {
  if (given) return given;
  return (STAGE_FILES as Record<string, { env?: { region: string } }>)[stage]?.env?.region;
}

/** The stage file's `secretVersions` fields: the version of each secret the stack pins. */
export type PinnedSecret = 'signingKeys' | 'originVerify';

/** infra/stages/<stage>.ts, absolute. */
export const stageFile = (stage: string): string =>
  fileURLToPath(new URL(`../../infra/stages/${stage}.ts`, import.meta.url));

/**
 * The stage file's text with `secretVersions.<field>` set to `versionId`, the other pin kept.
 * Written one field a line, as the formatter keeps it. Throws when the file has no
 * `secretVersions: { … }` (a hand-edited file: pin by hand).
 */
export function pinSecretVersion(source: string, field: PinnedSecret, versionId: string): string {
  if (!/^[\w-]{32,64}$/.test(versionId)) throw new Error(`"${versionId}" is not a Secrets Manager version id`);
  const block = /^([ \t]*)secretVersions: \{([^}]*)\},?$/m.exec(source);
  if (!block) throw new Error('the stage file has no `secretVersions: { … }` to pin the version in');
  const [whole, indent = '', inner = ''] = block;
  const pins = new Map([...inner.matchAll(/(\w+): '([^']*)'/g)].map((match) => [match[1]!, match[2]!]));
  pins.set(field, versionId);
  const lines = [...pins].map(([name, value]) => `${indent}  ${name}: '${value}',`);
  return source.replace(whole, `${indent}secretVersions: {\n${lines.join('\n')}\n${indent}},`);
}

/** Pins the version in infra/stages/<stage>.ts; returns the file's path. */
export function pinInStageFile(stage: string, field: PinnedSecret, versionId: string): string {
  const file = stageFile(stage);
  writeFileSync(file, pinSecretVersion(readFileSync(file, 'utf8'), field, versionId));
  return file;
}
