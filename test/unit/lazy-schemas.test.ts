import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/import-closure.ts';

/**
 * A module's composite schemas are built on their first parse (`z.lazy`, shared/schema.ts says why): a route's cold
 * start builds only the schemas it reads. A schema another one reads as a shape (`X.shape`, `z.extend(X, …)`,
 * `z.pick(X, …)`…) needs its object at once and stays eager; nothing else may.
 */
const COMPOSITE =
  /^z\s*\.\s*(strictObject|object|looseObject|union|discriminatedUnion|pipe|array|record|tuple|extend|intersection|optional|nullable)\s*\(/;
const READ_AS_SHAPE = /(\w+)\s*\.\s*shape\b|z\s*\.\s*(?:extend|safeExtend|omit|pick|partial|required|keyof)\(\s*(\w+)/g;

function sourcesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.startsWith('client/'))
    .map((file) => path.join(dir, file));
}

/** The schema a top-level initializer builds: `storedSchema<T>()(schema)` is its argument's. */
function built(init: ts.Expression): ts.Expression {
  if (ts.isCallExpression(init) && ts.isCallExpression(init.expression) && init.arguments.length === 1)
    return init.arguments[0]!;
  return init;
}

/** Whether an expression builds a composite schema at once: a composite factory, or `.check(...)` on one. */
function buildsEagerly(expression: ts.Expression, source: ts.SourceFile): boolean {
  const text = expression.getText(source);
  if (/^z\s*\.\s*lazy\(/.test(text)) return false;
  if (COMPOSITE.test(text)) return true;
  const callee = ts.isCallExpression(expression) ? expression.expression : undefined;
  return (
    !!callee &&
    ts.isPropertyAccessExpression(callee) &&
    callee.name.text === 'check' &&
    buildsEagerly(callee.expression, source)
  );
}

/** Names read as a shape anywhere: the OpenAPI build and the tests read some too. */
const readAsShape = new Set(
  ['shared', 'functions', 'bin', 'test']
    .flatMap(sourcesUnder)
    .flatMap((file) =>
      [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(READ_AS_SHAPE)].map((match) => (match[1] ?? match[2])!),
    ),
);

function eagerSchemas(files: readonly string[]): string[] {
  const texts = new Map(files.map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8')]));
  return [...texts].flatMap(([file, text]) => {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    return source.statements.flatMap((statement) =>
      ts.isVariableStatement(statement)
        ? statement.declarationList.declarations.flatMap((declaration) => {
            const name = declaration.name.getText(source);
            const init = declaration.initializer;
            return init && !readAsShape.has(name) && buildsEagerly(built(init), source) ? [`${file}: ${name}`] : [];
          })
        : [],
    );
  });
}

describe('schemas at a module’s top level', () => {
  it('are lazy, unless another schema reads them as a shape', () => {
    expect(eagerSchemas(sourcesUnder('shared'))).toEqual([]);
  });

  it('finds an eager one', () => {
    const file = 'test/unit/fixtures/eager-schema.ts';
    expect(eagerSchemas([file])).toEqual([`${file}: Eager`, `${file}: EagerChecked`]);
  });
});
