import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The project files a module reaches through its imports (its import closure), as a reader of one request follows
 * them: value imports and re-exports, relative or `#shared/…` (package.json "imports"); type-only imports are left
 * out, as the bundle leaves them out. Paths are relative to the repository's root.
 */
export const ROOT = path.resolve(import.meta.dirname, '../..');

const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

/** The project modules `file` imports for their values. */
export function importsOf(file: string): string[] {
  const source = readFileSync(path.join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const [, , typeOnly, specifier] of source.matchAll(IMPORT)) {
    if (typeOnly || !specifier) continue;
    const target = resolve(file, specifier);
    if (target) found.push(target);
  }
  return found;
}

function resolve(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('#shared/')) return `shared/${specifier.slice('#shared/'.length)}.ts`;
  if (!specifier.startsWith('.')) return undefined;
  const target = path.posix.join(path.posix.dirname(from), specifier);
  return existsSync(path.join(ROOT, target)) ? target : undefined;
}

/** Every project file `entry` reaches, itself included. */
export function closureOf(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...importsOf(file));
  }
  return seen;
}

/** Lines of a file, as `wc -l` counts them. */
export const linesOf = (file: string) => readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1;
