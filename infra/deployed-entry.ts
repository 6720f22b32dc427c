import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Generated, git-ignored: one entry per handler module, at the module's path below the project. */
export const ENTRIES_DIR = path.join(PROJECT_ROOT, '.local', 'entries');

/** The source of a deployed function's entry: the handler module's `handler`, nothing else. */
export const deployedEntrySource = (handlerModule: string): string =>
  `export { handler } from ${JSON.stringify(handlerModule)};\n`;

/** Where `deployedEntry` writes a handler module's entry: at the module's path below the project, under ENTRIES_DIR. */
export const deployedEntryFile = (handlerModule: string): string =>
  path.join(ENTRIES_DIR, path.relative(PROJECT_ROOT, handlerModule));

/**
 * The file a route's function is bundled from. esbuild keeps every export of an entry, so
 * the handler module itself would bring its `answer` (the success schema only the OpenAPI
 * build and the tests read, shared/http/route.ts) and every schema it names into the
 * bundle. This entry exports `handler` alone; esbuild leaves the rest out
 * (`"sideEffects": false`). Written atomically, and only when it changes: parallel synths
 * (the infra tests) may write the same entry at once.
 */
export function deployedEntry(handlerModule: string): string {
  const file = deployedEntryFile(handlerModule);
  const source = deployedEntrySource(path.relative(path.dirname(file), handlerModule));
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== source) {
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, source);
    renameSync(temporary, file);
  }
  return file;
}
