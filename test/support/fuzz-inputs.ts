import fc from 'fast-check';

/**
 * Input generators of the route fuzzing (test/deep/fuzz-*.test.ts): values built
 * from each route's own zod schemas (through their JSON Schema), mutations of them, and
 * hostile values and raw bodies no schema describes.
 */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
};

/** Values that exist in the fuzz table, by field name: generated values reach the records and the use cases behind them. */
export type Known = Record<string, readonly unknown[]>;

const MAX_INT = Number.MAX_SAFE_INTEGER;
/** The fuzz table's sequences start at 1, so small numbers are mostly real ids. */
const smallId = fc.integer({ min: 1, max: 40 });

export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uFFFD',
  '\uFEFF',
  '\u202E\u0041\u0042',
  '💥🎫',
  'é́́́́',
  'İ',
  '__proto__',
  'constructor',
  'prototype',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '9007199254740993',
  '-9007199254740993',
  '0x1F',
  '1.5',
  ' 12 ',
  '١٢٣',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '../../etc/passwd',
  '%2F%2e%2e',
  '%00',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a hostile input, sent as written
  '${jndi:ldap://x}',
  '{{7*7}}',
  'a'.repeat(257),
  'b'.repeat(5000),
  'x@y',
  'a@b.co\r\nBcc: evil@example.com',
  'javascript:alert(1)',
  '//evil.example',
  'https://evil.example/',
  '2026-02-30',
  '2026-13-01T25:61:61Z',
  '\t\n\r',
  // Wildcard-heavy patterns (the portal's title and search take `%`): within and past the cap,
  // with tails that never match, as a backtracking matcher would need exponential time for.
  `${'%a'.repeat(10)}b`,
  `${'%a'.repeat(40)}b`,
  `${'a%'.repeat(10)}${'a'.repeat(50)}!`,
  '%'.repeat(100),
  `%${'%_'.repeat(30)}%`,
];

export const HOSTILE_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  0.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 53),
  Number.MIN_VALUE,
  1e-300,
];

/** 100 levels of arrays or objects. */
export const deepNest = (depth: number, kind: 'array' | 'object'): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
};

/** Any hostile JSON value: strings, numbers, nesting, huge arrays, prototype keys, wrong types. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 5 },
  { arbitrary: fc.constantFrom(...HOSTILE_NUMBERS), weight: 3 },
  {
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      [],
      {},
      [null],
      ['1'],
      JSON.parse('{"__proto__":null,"x":1}'),
    ),
    weight: 2,
  },
  { arbitrary: fc.constantFrom(deepNest(100, 'array'), deepNest(100, 'object')), weight: 1 },
  { arbitrary: fc.constant(Array.from({ length: 2000 }, (_, i) => i + 1)), weight: 1 },
  {
    arbitrary: fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')),
    weight: 1,
  },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
);

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern), { size: 'small' });
  if (schema.format === 'email') return fc.emailAddress({ size: 'small' });
  if (schema.format === 'uri') return fc.webUrl({ size: 'small' });
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 60, 300);
  const text = fc.string({ unit: 'grapheme', minLength, maxLength: Math.max(minLength, Math.min(maxLength, 60)) });
  // Sometimes exactly at the limit: the longest value the schema allows is the one most likely to break storage.
  return schema.maxLength ? fc.oneof({ arbitrary: text, weight: 4 }, fc.constant('m'.repeat(schema.maxLength))) : text;
}

function numberOf(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min =
    schema.exclusiveMinimum !== undefined
      ? schema.exclusiveMinimum + (integer ? 1 : Number.EPSILON)
      : (schema.minimum ?? -MAX_INT);
  const max = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : (schema.maximum ?? MAX_INT);
  const full = integer
    ? fc.integer({ min: Math.max(min, -MAX_INT), max: Math.min(max, MAX_INT) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  const edges = fc.constantFrom(...[min, max].filter((n) => Number.isFinite(n)));
  const arbitraries: fc.Arbitrary<number>[] = [full, edges];
  // Amounts in cents: what clients send for money, which the schema's refinements want and JSON Schema cannot say.
  if (!integer && max - min <= 1e9)
    arbitraries.push(fc.integer({ min: Math.ceil(min * 100), max: Math.floor(max * 100) }).map((cents) => cents / 100));
  if (min <= 1 && max >= 40) arbitraries.push(smallId, smallId);
  return fc.oneof(...arbitraries);
}

/**
 * Values valid for a JSON Schema (the `io: 'input'` form zod writes), mostly. `known` mixes
 * existing values in by property name.
 */
export function fromSchema(schema: JsonSchema, known: Known = {}, name?: string): fc.Arbitrary<unknown> {
  const generated = fromSchemaOnly(schema, known);
  const values = name === undefined ? undefined : known[name];
  return values?.length
    ? fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 2 }, { arbitrary: generated, weight: 1 })
    : generated;
}

function fromSchemaOnly(schema: JsonSchema, known: Known): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => fromSchema(branch, known)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 5, 5));
      return fc.array(fromSchema(schema.items ?? {}, known), { minLength, maxLength });
    }
    case 'object': {
      const required = new Set(schema.required ?? []);
      const ABSENT = Symbol('absent');
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      // Optional fields mostly absent: every extra field is another chance to be refused before the use case runs.
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        const value = fromSchema(property, known, key);
        model[key] = required.has(key)
          ? value
          : fc.oneof({ arbitrary: fc.constant(ABSENT), weight: 3 }, { arbitrary: value, weight: 2 });
      }
      const record = fc
        .record(model)
        .map((value) => Object.fromEntries(Object.entries(value).filter(([, item]) => item !== ABSENT)));
      // Bulk bodies (`{ count, data }`) must agree on the count: mostly make them, so the items reach the use case.
      if (!schema.properties?.count || !schema.properties?.data) return record;
      return fc.tuple(record, fc.nat(4)).map(([value, pick]) => {
        const body = value as { count?: unknown; data?: unknown };
        return pick && Array.isArray(body.data) ? { ...body, count: body.data.length } : body;
      });
    }
    default:
      // No type (z.unknown(), or a field the use case validates itself): any small JSON.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

type Mutation = 'replace' | 'drop' | 'unknown-key' | 'proto-key' | 'wrong-root' | 'nest';

/** A valid object with one thing wrong: a field hostile, a required one dropped, an unknown or prototype key, the wrong root. */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      valid,
      fc.constantFrom<Mutation>(
        'replace',
        'replace',
        'replace',
        'drop',
        'unknown-key',
        'proto-key',
        'wrong-root',
        'nest',
      ),
      hostileValue,
      fc.nat(),
    )
    .map(([value, mutation, hostile, pick]) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        return mutation === 'wrong-root' ? { value } : hostile;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const names = Object.keys(copy);
      const name = names.length ? names[pick % names.length]! : 'field';
      switch (mutation) {
        case 'replace':
          copy[name] = hostile;
          return copy;
        case 'drop':
          delete copy[name];
          return copy;
        case 'unknown-key':
          copy[`unknown_${pick % 7}`] = hostile;
          return copy;
        case 'proto-key':
          return JSON.parse(
            `{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},${JSON.stringify(copy).slice(1)}`.replace(
              /,}$/,
              '}',
            ),
          );
        case 'wrong-root':
          return [copy];
        case 'nest':
          copy[name] = deepNest(100, pick % 2 ? 'array' : 'object');
          return copy;
      }
      throw new Error(`no such mutation: ${mutation satisfies never}`);
    });
}

/** A raw body: bytes no JSON serialiser would produce. */
export function rawBodies(valid: fc.Arbitrary<unknown>): fc.Arbitrary<Buffer> {
  const text = (value: unknown) => JSON.stringify(value ?? {}) ?? '{}';
  return fc.oneof(
    // Duplicate keys: the first value valid, the second hostile, or the reverse.
    fc.tuple(valid, hostileValue, fc.boolean()).map(([value, hostile, hostileFirst]) => {
      const body = text(value);
      if (!body.startsWith('{') || body === '{}')
        return Buffer.from(`{"a":1,"a":${JSON.stringify(hostile) ?? 'null'}}`);
      const key = /^\{"((?:[^"\\]|\\.)*)"/.exec(body)?.[1] ?? 'a';
      const extra = `"${key}":${JSON.stringify(hostile) ?? 'null'}`;
      return Buffer.from(hostileFirst ? `{${extra},${body.slice(1)}` : `${body.slice(0, -1)},${extra}}`);
    }),
    valid.map((value) => Buffer.from(text(value).slice(0, -1))), // truncated
    valid.map((value) => Buffer.from(`\uFEFF${text(value)}`)), // byte order mark
    valid.map((value) => Buffer.from(`${text(value)}${text(value)}`)), // two documents
    valid.map((value) =>
      Buffer.concat([Buffer.from(text(value).slice(0, -1)), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from('}')]),
    ), // invalid UTF-8
    valid.map((value) => Buffer.from(text(value).replace(/"([^"]*)"/, '"$1\\ud800"'))), // escaped lone surrogate
    valid.map((value) => Buffer.from(text(value).replace(/:(\d+)/, ':$1e308'))), // number overflow in text
    fc
      .constantFrom(
        '',
        '   ',
        'null',
        'true',
        '0',
        '-0',
        '1e308',
        '9007199254740993',
        'NaN',
        'Infinity',
        '"string"',
        '[]',
        '{',
        '{"a":}',
        "{'a':1}",
        '{"a":1,}',
        '{"a":1e999999}',
        '{"a":-0}',
        '{"a":9007199254740993}',
        '{"a":"\\u0000"}',
        '{"__proto__":{"polluted":true}}',
        '{"constructor":{"prototype":{"polluted":true}}}',
        `${'['.repeat(100)}1${']'.repeat(100)}`,
        `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`,
        `${'['.repeat(5000)}${']'.repeat(5000)}`,
        `{"a":"${'x'.repeat(200_000)}"}`,
        '\u0000\u0000',
        'a=1&b=2',
        '<?xml version="1.0"?><a/>',
      )
      .map((body) => Buffer.from(body)),
    fc.constant(Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])), // UTF-16 with BOM
    fc.constant(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d])), // CESU surrogate bytes
    fc.constant(Buffer.alloc(1024 * 1024 + 10, 0x20)), // past the body limit
  );
}

export const CONTENT_TYPES: readonly (string | undefined)[] = [
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'application/jsonp',
  'application/json, text/plain',
  'image/png',
  ';;;',
];

/** Path segments that are not ids: encoded slashes, huge and negative numbers, unicode, bad percent escapes. */
export const HOSTILE_SEGMENTS: readonly string[] = [
  '0',
  '-1',
  '00001',
  '1.0',
  '1e3',
  '0x10',
  '9007199254740991',
  '9007199254740993',
  '999999999999999',
  '1000000000000000',
  '99999999999999999999999999',
  '%2F',
  '..%2F..%2Fadmin',
  '%252F',
  '%00',
  '%',
  '%E0%A4%A',
  '%C0%AF',
  '%F0%9F%92%A5',
  '%D9%A1%D9%A2',
  '%20',
  '1%20',
  '__proto__',
  'constructor',
  'null',
  'NaN',
  '%3Cscript%3E',
  'a'.repeat(2048),
];

/** encodeURIComponent, except that a lone surrogate (which it refuses) becomes its CESU-8 bytes: not UTF-8 either. */
export function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

/** One path segment: an existing value, one the schema accepts, or a hostile one (already URL-encoded). */
export function pathSegment(schema: JsonSchema, known: readonly unknown[] = []): fc.Arbitrary<string> {
  const arbitraries: fc.WeightedArbitrary<string>[] = [
    { arbitrary: fromSchema(schema).map((value) => encode(String(value))), weight: 2 },
    { arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS), weight: 3 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encode), weight: 1 },
  ];
  if (known.length)
    arbitraries.push({ arbitrary: fc.constantFrom(...known.map((value) => encode(String(value)))), weight: 6 });
  return fc.oneof(...arbitraries);
}

const HOSTILE_QUERY_VALUES = [
  '',
  '2147483647',
  '9007199254740993',
  '-1',
  '0',
  '1e3',
  '99999999999999999999',
  'true',
  'a,b,,c',
  ',,,',
  '1,1,1,1',
  ...HOSTILE_STRINGS.slice(0, 30),
];

/** A query string: the schema's keys with valid or hostile values, repeated keys, `key[]` arrays, unknown keys, bad escapes. */
export function queryString(schema: JsonSchema | undefined, known: Known = {}): fc.Arbitrary<string> {
  const valid = schema ? fromSchema(schema, known) : fc.constant({});
  const names = Object.keys(schema?.properties ?? {});
  const name = names.length ? fc.constantFrom(...names) : fc.constant('q');
  const extra = fc.oneof(
    fc.tuple(name, fc.constantFrom(...HOSTILE_QUERY_VALUES)).map(([key, value]) => `${key}=${encode(value)}`),
    fc
      .tuple(name, fc.constantFrom(...HOSTILE_QUERY_VALUES))
      .map(([key, value]) => `${key}[]=${encode(value)}&${key}[]=1`),
    fc.constantFrom(
      'unknown=1',
      '__proto__=1',
      'constructor[prototype]=1',
      '%zz=%zz',
      '=',
      '&&&',
      'a=%E0%A4%A',
      `x=${'y'.repeat(3000)}`,
    ),
  );
  return fc
    .tuple(
      valid,
      fc.oneof({ arbitrary: fc.constant([]), weight: 2 }, fc.array(extra, { minLength: 1, maxLength: 3 })),
      fc.nat(),
    )
    .map(([values, extras, pick]) => {
      const repeat = pick % 5 === 0;
      const params = new URLSearchParams();
      // A generated value may be an object without a prototype (no toString): sent as its JSON.
      for (const [key, value] of Object.entries((values ?? {}) as Record<string, unknown>))
        params.append(key, value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value));
      const entries = [...params.keys()];
      // A repeated key: API Gateway joins the values with a comma.
      if (repeat && entries.length)
        params.append(entries[pick % entries.length]!, String(params.get(entries[pick % entries.length]!)));
      return [params.toString(), ...extras].filter(Boolean).join('&');
    });
}
