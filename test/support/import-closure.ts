import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The project files a module reaches through its imports (its import closure), as a reader of one request follows
 * them: value imports and re-exports, relative or `#shared/…` (package.json "imports"); type-only imports are left
 * out, as the bundle leaves them out. Paths are relative to the repository's root.
 */
export const ROOT = path.resolve(import.meta.dirname, '../..');

const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

/** The specifiers `file` imports for their values (a bundle keeps each: `verbatimModuleSyntax` keeps `{ type X }`'s). */
function valueSpecifiers(file: string): string[] {
  const source = readFileSync(path.join(ROOT, file), 'utf8');
  return [...source.matchAll(IMPORT)].flatMap(([, , typeOnly, specifier]) =>
    typeOnly || !specifier ? [] : [specifier],
  );
}

/** The project modules `file` imports for their values. */
export function importsOf(file: string): string[] {
  return valueSpecifiers(file).flatMap((specifier) => resolve(file, specifier) ?? []);
}

/** The npm packages `file` imports for their values, by name (`stripe`, `@aws-sdk/client-sesv2`; `node:` ones left out). */
export function packagesOf(file: string): string[] {
  return valueSpecifiers(file)
    .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('#') && !specifier.startsWith('node:'))
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );
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
