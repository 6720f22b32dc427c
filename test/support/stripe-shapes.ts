import { join } from 'node:path';
import ts from 'typescript';

/**
 * The shapes the official Stripe SDK declares (node_modules/stripe's .d.ts files, generated from Stripe's published
 * OpenAPI document), read with the TypeScript compiler, and a check of a JSON answer against one: every key the
 * answer has is declared, every key declared required is there, down through nested objects (an expandable field,
 * `string | Charge | null`, is checked as the member its value is). A free-form object (`metadata`, an index
 * signature) is not looked into.
 */
export interface ShapeProblem {
  path: string;
  problem: 'not declared' | 'missing';
}

/** `name`: a type expression over the SDK's namespace, `Stripe.PaymentIntent`, `Stripe.ApiList<Stripe.Refund>`. */
export function sdkShapes(names: readonly string[]) {
  const file = join(process.cwd(), 'test', 'support', '__stripe-shapes__.ts');
  const text = [
    "import type Stripe from 'stripe';",
    ...names.map((name, i) => `export type Shape${i} = ${name};`),
  ].join('\n');
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? text : readFile.call(host, name));
  host.getSourceFile = (name, version, ...rest) =>
    name === file ? ts.createSourceFile(name, text, version) : getSourceFile.call(host, name, version, ...rest);
  const program = ts.createProgram({ rootNames: [file], options, host });
  const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(file));
  if (errors.length)
    throw new Error(errors.map((error) => ts.flattenDiagnosticMessageText(error.messageText, '\n')).join('\n'));
  const checker = program.getTypeChecker();
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!);
  const typeOf = (i: number) => checker.getDeclaredTypeOfSymbol(exports.find((symbol) => symbol.name === `Shape${i}`)!);

  /** The object member of a type a JSON object can be (the one whose `object` literal matches, if several). */
  const objectMember = (type: ts.Type, value: Record<string, unknown>): ts.Type | undefined => {
    const members = (type.isUnion() ? type.types : [type]).filter(
      (member) => member.flags & ts.TypeFlags.Object && !checker.isArrayType(member),
    );
    const tagged = members.find((member) => {
      const tag = member.getProperty('object');
      if (!tag || typeof value.object !== 'string') return false;
      const literal = checker.getTypeOfSymbol(tag);
      return literal.isStringLiteral() && literal.value === value.object;
    });
    return tagged ?? members[0];
  };

  const check = (value: unknown, type: ts.Type, path: string): ShapeProblem[] => {
    if (value === null || typeof value !== 'object') return [];
    if (Array.isArray(value)) {
      const array = (type.isUnion() ? type.types : [type]).find((member) => checker.isArrayType(member));
      const element = array && checker.getTypeArguments(array as ts.TypeReference)[0];
      return element ? value.flatMap((item, i) => check(item, element, `${path}[${i}]`)) : [];
    }
    const record = value as Record<string, unknown>;
    const shape = objectMember(type, record);
    if (!shape || checker.getIndexInfosOfType(shape).length) return [];
    const declared = new Map(checker.getPropertiesOfType(shape).map((symbol) => [symbol.name, symbol]));
    const problems: ShapeProblem[] = [];
    for (const key of Object.keys(record)) {
      const symbol = declared.get(key);
      if (!symbol) problems.push({ path: `${path}.${key}`, problem: 'not declared' });
      else problems.push(...check(record[key], checker.getTypeOfSymbol(symbol), `${path}.${key}`));
    }
    for (const [key, symbol] of declared)
      if (!(symbol.flags & ts.SymbolFlags.Optional) && !(key in record))
        problems.push({ path: `${path}.${key}`, problem: 'missing' });
    return problems;
  };

  return {
    /** The problems of `value` against `names[i]`, paths from `$`. */
    check: (value: unknown, name: string) => check(value, typeOf(names.indexOf(name)), '$'),
  };
}

/** `payment_intent.succeeded` → `Stripe.PaymentIntentSucceededEvent`, as the SDK names each event's type. */
export const sdkEventType = (type: string) =>
  `Stripe.${type
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}Event`;
