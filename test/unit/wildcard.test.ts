import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MAX_WILDCARDS, wildcardCount, wildcardPattern } from '#shared/domain/wildcard';
import { PortalEventQuery } from '#shared/portal/contract/my-account';

describe('wildcard patterns (only % is special)', () => {
  it.each([
    ['City Marathon', 'City Marathon', true],
    ['City Marathon', 'City Marathon 2', false],
    ['City%', 'City Marathon', true],
    ['City%', 'Town City', false],
    ['%Marathon', 'City Marathon', true],
    ['%Marathon', 'Marathon City', false],
    ['%', '', true],
    ['%%', 'anything', true],
    ['', '', true],
    ['', 'x', false],
    ['a%a', 'a', false],
    ['a%a', 'aa', true],
    ['ab%bc', 'abc', false],
    ['ab%bc', 'abbc', true],
    ['%a%b%', 'xxaxxbxx', true],
    ['%a%b%', 'xxbxxaxx', false],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: regex metacharacters, matched literally
    ['%.*+?^${}()|[]\\%', 'x.*+?^${}()|[]\\y', true],
    ['%.*%', 'abc', false],
  ])('%j against %j: %j', (pattern, text, expected) => {
    expect(wildcardPattern(pattern).matches(text)).toBe(expected);
  });

  it('compares case-insensitively only when asked', () => {
    expect(wildcardPattern('%river RUN%', { ignoreCase: true }).matches('The River Run 10K')).toBe(true);
    expect(wildcardPattern('%river RUN%').matches('The River Run 10K')).toBe(false);
  });

  // The patterns that made the old regular expression backtrack for tens of seconds: many
  // wildcards between repeated letters and a tail that never matches.
  const title = 'a'.repeat(200);
  const hostile = [
    `${'%a'.repeat(MAX_WILDCARDS)}b`,
    `${'%a'.repeat(MAX_WILDCARDS - 1)}%b%`,
    `${'a%'.repeat(MAX_WILDCARDS)}b`,
    `%${'a'.repeat(50)}%${'a'.repeat(50)}b`,
  ];
  it.each(hostile)('scans the text once, without backtracking, for %j', (pattern) => {
    for (const ignoreCase of [false, true]) {
      const work = { steps: 0 };
      expect(wildcardPattern(pattern, { ignoreCase }).matches(title, work)).toBe(false);
      expect(work.steps).toBeLessThanOrEqual(title.length + pattern.length);
    }
  });

  it(`the portal query refuses more than ${MAX_WILDCARDS} wildcards in title or search, naming the cap`, () => {
    const many = '%a'.repeat(MAX_WILDCARDS + 1);
    expect(wildcardCount(many)).toBe(MAX_WILDCARDS + 1);
    for (const name of ['title', 'search']) {
      const result = PortalEventQuery.safeParse({ [name]: many });
      expect(result.success).toBe(false);
      expect(JSON.stringify(result.error?.issues)).toContain(`at most ${MAX_WILDCARDS} % wildcards`);
      expect(PortalEventQuery.safeParse({ [name]: '%a'.repeat(MAX_WILDCARDS) }).success).toBe(true);
    }
  });
});

describe('no client text becomes a regular expression', () => {
  it('builds no RegExp at run time anywhere in shared/ or functions/ (only literals)', () => {
    const files = execFileSync('git', ['ls-files', 'shared', 'functions', 'bin/local'], { encoding: 'utf8' })
      .split('\n')
      .filter((file) => file.endsWith('.ts'));
    const built = files.filter((file) => /new RegExp\(|\bRegExp\(/.test(readFileSync(file, 'utf8')));
    expect(built).toEqual([]);
  });
});
