/**
 * Lambda event filtering, the part of it our event source mappings use, so the local stream
 * poller (stream-poller.ts) drops the records an event source mapping would drop. A pattern
 * is the JSON of one filter of the mapping's FilterCriteria, matched against the record as
 * the function receives it (DynamoDB streams: attribute values in DynamoDB JSON, so
 * `{ dynamodb: { NewImage: { PK: { S: [{ prefix: 'EVENT#' }] } } } }`).
 *
 * Lambda follows EventBridge's pattern rules (its engine is aws/event-ruler):
 * https://docs.aws.amazon.com/lambda/latest/dg/invocation-eventfiltering.html
 * - every field named in the pattern must match (AND); the rules listed for one field are
 *   alternatives (OR); fields the pattern doesn't name are ignored;
 * - values match exactly, strings against strings and numbers against numbers, never
 *   across types (`"1"` is not `1`); `null` matches a field whose value is null, not a
 *   missing one;
 * - a field whose value is an array matches when one of its elements does;
 * - only leaves (strings, numbers, booleans, null) count: `{ exists: true }` on a field
 *   holding an object does not match, and `{ exists: false }` does (event-ruler's documentation
 *   says exists matches work on the leaf nodes only); every rule but `exists: false` needs
 *   the field to be present.
 *
 * Other operators (numeric, suffix, $or, anything-but with a prefix...) are refused, not
 * guessed at: add them here, with tests, when a mapping needs one.
 */
export type FilterValue = string | number | boolean | null;

export type FilterRule =
  | FilterValue
  | { exists: boolean }
  | { prefix: string }
  | { 'anything-but': FilterValue | FilterValue[] };

export interface FilterPattern {
  [field: string]: FilterRule[] | FilterPattern;
}

export function matchesFilter(record: unknown, pattern: FilterPattern): boolean {
  assertFilterPattern(pattern);
  return matchesPattern(record, pattern);
}

/** Throws a TypeError naming the first thing in `pattern` this matcher doesn't support (as Lambda refuses a mapping). */
export function assertFilterPattern(pattern: unknown, path = 'pattern'): asserts pattern is FilterPattern {
  if (!isObject(pattern)) throw new TypeError(`${path} must be an object of fields, got ${JSON.stringify(pattern)}`);
  for (const [field, value] of Object.entries(pattern)) {
    const at = `${path}.${field}`;
    if (Array.isArray(value)) {
      if (value.length === 0) throw new TypeError(`${at} lists no rules`);
      for (const rule of value) assertRule(rule, at);
    } else assertFilterPattern(value, at);
  }
}

function assertRule(rule: unknown, at: string): void {
  if (isFilterValue(rule) || isSupportedOperator(rule)) return;
  throw new TypeError(`${at}: unsupported rule ${JSON.stringify(rule)} (see bin/local/event-filter.ts)`);
}

function isSupportedOperator(rule: unknown): boolean {
  if (!isObject(rule)) return false;
  const entries = Object.entries(rule);
  if (entries.length !== 1) return false;
  const [operator, operand] = entries[0]!;
  if (operator === 'exists') return typeof operand === 'boolean';
  if (operator === 'prefix') return typeof operand === 'string';
  if (operator === 'anything-but')
    return isFilterValue(operand) || (Array.isArray(operand) && operand.length > 0 && operand.every(isFilterValue));
  return false;
}

function matchesPattern(value: unknown, pattern: FilterPattern): boolean {
  // An array of objects matches when one of its elements matches the whole sub-pattern (as event-ruler keeps the
  // fields matched in one array element together); an empty one is as good as missing.
  if (Array.isArray(value) && value.length > 0) return value.some((element) => matchesPattern(element, pattern));
  return Object.entries(pattern).every(([field, rules]) => {
    const child = isObject(value) ? value[field] : undefined;
    return Array.isArray(rules) ? matchesRules(leavesOf(child), rules) : matchesPattern(child, rules);
  });
}

/** The field's leaf values: none when it is missing or holds an object (or an empty array). */
function leavesOf(value: unknown): FilterValue[] {
  if (Array.isArray(value)) return value.filter(isFilterValue);
  return isFilterValue(value) ? [value] : [];
}

function matchesRules(leaves: FilterValue[], rules: FilterRule[]): boolean {
  return rules.some((rule) => {
    if (isFilterValue(rule)) return leaves.some((leaf) => leaf === rule);
    if ('exists' in rule) return rule.exists === leaves.length > 0;
    if ('prefix' in rule) return leaves.some((leaf) => typeof leaf === 'string' && leaf.startsWith(rule.prefix));
    const excluded = ([] as FilterValue[]).concat(rule['anything-but']);
    return leaves.some((leaf) => !excluded.includes(leaf));
  });
}

function isFilterValue(value: unknown): value is FilterValue {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
