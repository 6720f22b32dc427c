import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Imports run one way, down the layers of DESIGN.md: bin/ → infra/ → functions/ → http (shared/http's plumbing and
 * each capability's contract/) → shared/routes.ts → use cases → the list engine (shared/lists) → data | services →
 * domain → shared/auth → the modules at the root of shared/ (errors, clock, config, schema, logger…). A layer is
 * told by a module's folder inside its capability (`shared/selling/use-cases/…` is a use case), or inside the
 * platform's own folders (`shared/data/keys.ts` is data). A module imports only from its own layer or a lower one;
 * data and services stand side by side and import neither each other nor anything above them (so data and domain
 * never import the list engine).
 *
 * shared/ is cut by capability (shared/README.md "Finding your room"): a folder with a README.md whose door table
 * (a table headed `door`) names the modules the rest of shared/ may import; everything else in the folder is its
 * own. The handlers (functions/), infra/, bin/ and the tests stand outside every capability and import what their
 * route needs.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const GENERATED = new Set(['shared/client/openapi-types.ts']);
/** STYLE.md's cap on a module's length: past it, a file holds more than one concept. */
const MAX_LINES = 300;
const MAX_UNKNOWN_CASTS = 2;
/**
 * What the table returns becomes a value through its entity's schema (shared/data/client.ts `parseItem`); the casts
 * left are shared/data/README.md's three (a stored answer and a migration's checkpoint, typed by their caller, and the
 * record a ticket list's walk carries, parsed already).
 */
const MAX_READ_CASTS = 3;
/** `<an item, its attribute or a shard> as <Type>`, in the layers that read the table. */
const READ_CAST = /\b(?:Item|Items|item|items|Attributes|shard)\b[\w?.[\]]*\)?\s+as\s+(?!const\b)[A-Z{]/g;

interface Layer {
  name: string;
  rank: number;
}

/** The layers a capability's folder holds, by subfolder (the list engine is one layer of its own). */
const CAPABILITY_LAYERS: Record<string, Layer> = {
  contract: { name: 'http', rank: 8 },
  'use-cases': { name: 'use-cases', rank: 6 },
  data: { name: 'data', rank: 4 },
  services: { name: 'services', rank: 4 },
  domain: { name: 'domain', rank: 3 },
};

/**
 * A capability's doors: the first cell of every row of its README's tables headed `door`, relative to the folder
 * (a table with no rows: nothing else imports it). Undefined for a folder without such a table: not a capability.
 */
function doorsOf(folder: string): string[] | undefined {
  const readme = path.join(ROOT, folder, 'README.md');
  if (!existsSync(readme)) return undefined;
  let doors: string[] | undefined;
  let inTable = false;
  for (const line of readFileSync(readme, 'utf8').split('\n')) {
    if (!line.startsWith('|')) inTable = false;
    else if (/^\|\s*door\s*\|/i.test(line)) {
      inTable = true;
      doors ??= [];
    } else if (inTable && !/^\|\s*-/.test(line)) {
      const door = /^\|\s*`([^`]+)`/.exec(line)?.[1];
      if (door) doors?.push(path.posix.join(folder, door));
    }
  }
  return doors;
}

/** Every capability of shared/ and its doors. */
const CAPABILITIES = new Map(
  readdirSync(path.join(ROOT, 'shared'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const doors = doorsOf(`shared/${entry.name}`);
      return doors ? [[entry.name, new Set(doors)] as const] : [];
    }),
);

const capabilityOf = (file: string): string | undefined => {
  const folder = /^shared\/([^/]+)\//.exec(file)?.[1];
  return folder && CAPABILITIES.has(folder) ? folder : undefined;
};

function layerOf(file: string): Layer {
  const inShared = (folder: string) => file.startsWith(`shared/${folder}/`);
  if (file.startsWith('bin/')) return { name: 'bin', rank: 11 };
  // The tests' factories of events, tickets and orders: the demo seed (bin/seed/) builds its data with them too.
  if (file.startsWith('test/support/factories/')) return { name: 'test/support/factories', rank: 10.5 };
  if (file.startsWith('infra/')) return { name: 'infra', rank: 10 };
  if (file.startsWith('functions/')) return { name: 'functions', rank: 9 };
  if (inShared('client')) return { name: 'shared/client', rank: 9 };
  if (inShared('lists')) return { name: 'lists', rank: 5 };
  const capability = capabilityOf(file);
  if (capability) {
    const layer = CAPABILITY_LAYERS[file.split('/')[2] ?? ''];
    if (!layer)
      throw new Error(`${file} is in no layer of ${capability}: contract/, use-cases/, domain/, data/ or services/`);
    return layer;
  }
  if (inShared('http')) return { name: 'http', rank: 8 };
  // The route table, its rows' shape and the jobs' grants beside it (its rows' `uses`), one layer.
  if (file === 'shared/routes.ts' || file === 'shared/route-row.ts' || file === 'shared/job-grants.ts')
    return { name: 'shared/routes.ts', rank: 7 };
  if (inShared('use-cases')) return { name: 'use-cases', rank: 6 };
  if (inShared('data')) return { name: 'data', rank: 4 };
  if (inShared('services')) return { name: 'services', rank: 4 };
  if (inShared('domain')) return { name: 'domain', rank: 3 };
  if (inShared('auth')) return { name: 'shared/auth', rank: 2 };
  if (/^shared\/[^/]+\.ts$/.test(file)) return { name: 'shared (root modules)', rank: 1 };
  throw new Error(`${file} is in no layer: add its folder to layerOf`);
}

/** Imports that skip a layer on purpose are refused anyway: storage is reached through a use case. */
const SKIPS_REFUSED: Record<string, readonly string[]> = {
  functions: ['data', 'services', 'lists'],
  http: ['data'],
};

/** Packages that mean I/O or HTTP: the pure layers import none. */
const PURE_LAYERS = ['domain', 'shared/auth'];
const IMPURE_PACKAGE = /^(@aws-sdk\/|@middy\/|@aws-lambda-powertools\/)/;

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .filter((file) => !GENERATED.has(file));
}

/** Every module specifier a file names: static imports and re-exports, type-only ones too, and `import()`. */
function specifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = [...code.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g)].map(
    (match) => match[1] as string,
  );
  const bare = [...code.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)].map((match) => match[1] as string);
  const dynamic = [...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((match) => match[1] as string);
  return [...found, ...bare, ...dynamic];
}

/** The repository file a specifier names, or undefined for a package. */
function resolved(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('#shared/')) return `shared/${specifier.slice('#shared/'.length)}.ts`;
  if (specifier.startsWith('.')) return path.normalize(path.join(path.dirname(from), specifier));
  return undefined;
}

const files = ['bin', 'test/support/factories', 'infra', 'functions', 'shared'].flatMap(sourceFiles);
const imports = files.flatMap((file) =>
  specifiers(readFileSync(path.join(ROOT, file), 'utf8')).map((specifier) => ({
    file,
    specifier,
    target: resolved(file, specifier),
  })),
);

describe('the layers', () => {
  it('finds the modules and their imports it walks', () => {
    expect(files.length).toBeGreaterThan(250);
    expect(imports.filter((i) => i.target).length).toBeGreaterThan(1000);
  });

  it('places every module in a layer, and every imported module exists there', () => {
    const fileSet = new Set(files);
    const missing = imports.filter((i) => i.target && !fileSet.has(i.target) && !GENERATED.has(i.target));
    expect(missing.map((i) => `${i.file} imports ${i.specifier}`)).toEqual([]);
    for (const file of files) layerOf(file);
  });

  it('imports only downwards or within a layer', () => {
    const upwards = imports
      .filter((i) => i.target)
      .filter((i) => {
        const from = layerOf(i.file);
        const to = layerOf(i.target as string);
        return from.name !== to.name && to.rank >= from.rank;
      });
    expect(upwards.map((i) => `${i.file} (${layerOf(i.file).name}) imports ${i.specifier}`)).toEqual([]);
  });

  it('reaches storage only through the use cases', () => {
    const skipping = imports.filter((i) => {
      if (!i.target) return false;
      return (SKIPS_REFUSED[layerOf(i.file).name] ?? []).includes(layerOf(i.target).name);
    });
    expect(skipping.map((i) => `${i.file} imports ${i.specifier}`)).toEqual([]);
  });

  it('finds every capability and its doors, each door a module of it', () => {
    expect([...CAPABILITIES.keys()].sort()).toEqual(
      ['events', 'gate', 'identity', 'lists', 'migrations', 'portal', 'selling', 'tickets', 'webhooks'].sort(),
    );
    const fileSet = new Set(files);
    const missing = [...CAPABILITIES.values()].flatMap((doors) => [...doors].filter((door) => !fileSet.has(door)));
    expect(missing).toEqual([]);
  });

  // The list engine is entered by its doors from anywhere (bin/ and infra/ too); another capability from the rest of
  // shared/ (the handlers, bin/'s seeds, bench and OpenAPI builder, and the tests reach in where their route or
  // scenario needs).
  it('enters a capability only by its doors', () => {
    const inside = imports.filter((i) => {
      const to = i.target && capabilityOf(i.target);
      if (!to || capabilityOf(i.file) === to) return false;
      if (to !== 'lists' && !i.file.startsWith('shared/')) return false;
      return !CAPABILITIES.get(to)?.has(i.target as string);
    });
    expect(
      inside.map((i) => `${i.file} imports ${i.specifier} (not a door of ${capabilityOf(i.target as string)})`),
    ).toEqual([]);
  });

  it('keeps the domain and the token rules pure: no AWS SDK, middy or Powertools', () => {
    const impure = imports.filter(
      (i) => !i.target && PURE_LAYERS.includes(layerOf(i.file).name) && IMPURE_PACKAGE.test(i.specifier),
    );
    expect(impure.map((i) => `${i.file} imports ${i.specifier}`)).toEqual([]);
  });

  // Type-only imports count: a circle of types is still two modules that cannot be read apart.
  it('has no import cycle anywhere in bin/, infra/, functions/ or shared/', () => {
    const edges = new Map<string, string[]>();
    for (const i of imports) {
      if (!i.target) continue;
      edges.set(i.file, [...(edges.get(i.file) ?? []), i.target]);
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of edges.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of edges.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it(`keeps every module under ${MAX_LINES} lines`, () => {
    const long = files
      .map((file) => ({ file, lines: readFileSync(path.join(ROOT, file), 'utf8').trimEnd().split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long.map(({ file, lines }) => `${file}: ${lines} lines`)).toEqual([]);
  });

  // Each such cast says the types cannot follow a value: a ticket's answer built field by field (ticket-view.ts), and
  // our OpenAPI document handed to openapi-typescript, whose own type it does not name (bin/api-docs/client-types.ts).
  it(`casts through unknown at most ${MAX_UNKNOWN_CASTS} times`, () => {
    const casts = files.flatMap((file) =>
      [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/\bas unknown as\b/g)].map(() => file),
    );
    expect(casts.length, casts.join(', ')).toBeLessThanOrEqual(MAX_UNKNOWN_CASTS);
  });

  it(`casts what the table returns at most ${MAX_READ_CASTS} times (shared/data, shared/lists)`, () => {
    const casts = files
      .filter((file) => file.startsWith('shared/data/') || file.startsWith('shared/lists/'))
      .flatMap((file) =>
        readFileSync(path.join(ROOT, file), 'utf8')
          .split('\n')
          .filter((line) => !/^\s*(\*|\/\/)/.test(line))
          .flatMap((line) => [...line.matchAll(READ_CAST)].map(() => `${file}: ${line.trim()}`)),
      );
    expect(casts.length, casts.join('\n')).toBeLessThanOrEqual(MAX_READ_CASTS);
  });
});
