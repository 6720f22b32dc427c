/**
 * SQL-LIKE patterns where only `%` is special (any run of characters, possibly none);
 * everything else is literal. Matched without regular expressions: a pattern is split at
 * its `%`s into literal parts, the first must start the text, the last must end it, and
 * the ones between are found left to right, each as early as possible. Taking the
 * earliest place for each part is always right (a later place only leaves less text for
 * the parts after it), so there is no backtracking: at most one `indexOf` per part, work
 * bounded by the text's length times the number of parts, whatever the pattern. (The
 * regular expression this replaces backtracked exponentially: `%a%a%a…b` against a long
 * title ran for tens of seconds.)
 */

/** The most `%` a client's pattern may hold (the input schemas refuse more, naming the cap). */
export const MAX_WILDCARDS = 10;

export interface WildcardPattern {
  /**
   * Whether the whole text matches the pattern. `work.steps` (tests) adds the characters
   * the scans passed over: never more than the text's length plus the pattern's.
   */
  matches(text: string, work?: { steps: number }): boolean;
}

/**
 * The pattern as a matcher; `ignoreCase` compares lower-cased pattern and text (the
 * search filter), else the comparison is exact (the title filter). `any` is the wildcard
 * character: `%` for clients' patterns, `*` for IAM's `StringLike` (shared/routes.ts).
 */
export function wildcardPattern(pattern: string, { ignoreCase = false, any = '%' } = {}): WildcardPattern {
  const fold = (text: string) => (ignoreCase ? text.toLowerCase() : text);
  const parts = fold(pattern).split(any);
  return { matches: (text, work) => matchParts(parts, fold(text), work) };
}

/** Number of `%` in a pattern (the schemas refuse more than MAX_WILDCARDS). */
export const wildcardCount = (pattern: string): number => pattern.split('%').length - 1;

function matchParts(parts: readonly string[], text: string, work = { steps: 0 }): boolean {
  const [first = '', ...rest] = parts;
  if (!rest.length) return text === first;
  const last = rest.at(-1) ?? '';
  // The fixed ends must fit without overlapping.
  if (first.length + last.length > text.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i] ?? '';
    if (part === '') continue;
    const found = text.indexOf(part, at);
    work.steps += (found === -1 ? text.length : found + part.length) - at;
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}
