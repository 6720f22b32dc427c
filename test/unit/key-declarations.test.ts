import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INDEX_SHARDS, keys } from '#shared/data/keys';
import { keyCondition, placedIn } from '#shared/data/key-conditions';

/**
 * Every item key and index placement is declared in shared/data/keys.ts, and every Query key
 * condition is built from those declarations by shared/data/key-conditions.ts (both over the
 * table's shape in shared/data/table-schema.ts): changing an index, a key template or how a
 * key condition is written is a change in those files and nowhere else (keys.ts merges in the
 * customers' declarations, customer-keys.ts, built over key-parts.ts).
 */
const ROOT = join(import.meta.dirname, '../..');
const DECLARATIONS = new Set([
  'shared/data/keys.ts',
  'shared/data/customer-keys.ts',
  'shared/data/event-admin-keys.ts',
  // An event's sharded counts (statistics, purchase counts), apart from keys.ts for its length.
  'shared/data/count-keys.ts',
  // Promo codes and their uses' shards, apart from keys.ts for its length.
  'shared/data/promo-code-keys.ts',
  // The public rows' partition patterns (IAM StringLike), apart from keys.ts for its length.
  'shared/data/partition-patterns.ts',
  'shared/data/key-parts.ts',
  'shared/data/key-conditions.ts',
  'shared/data/table-schema.ts',
]);

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The code without its comments (a `//` after `:` or a quote is part of a URL or a string). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

const FORBIDDEN: [string, RegExp][] = [
  ['an index name or index key attribute', /\bGSI\d+(PK|SK)?\b/],
  ['a hand-written key condition', /KeyConditionExpression\s*:/],
  ['a key template', /['"`][A-Z][A-Z_]*#/],
];

/** A route's or job's grant names the GSIs it may query (`indexes` in shared/routes.ts, shared/job-grants.ts): IAM's index ARNs need the names. */
const grantsIndexes = (path: string, line: string) =>
  ['shared/routes.ts', 'shared/job-grants.ts'].includes(path) && /\bindexes: \[/.test(line);

describe('key declarations', () => {
  it('no index name, key condition or key template is written outside the key declarations (keys.ts with customer-keys.ts, event-admin-keys.ts, count-keys.ts and key-parts.ts, key-conditions.ts, table-schema.ts)', () => {
    const found: string[] = [];
    for (const file of ['shared', 'functions', 'bin'].flatMap(sources)) {
      const path = relative(ROOT, join(ROOT, file));
      if (DECLARATIONS.has(path)) continue;
      code(readFileSync(join(ROOT, file), 'utf8'))
        .split('\n')
        .forEach((line, n) => {
          for (const [what, pattern] of FORBIDDEN)
            if (pattern.test(line) && !grantsIndexes(path, line))
              found.push(`${path}:${n + 1} ${what}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('builds key conditions from the declared partition and sort condition', () => {
    expect(keyCondition(keys.eventTickets(7, 1), { after: keys.ticketSort(12) })).toEqual({
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :keyPartition AND GSI1SK > :keySort',
      ExpressionAttributeValues: { ':keyPartition': 'EVENT_TICKETS#7#1', ':keySort': 'TICKET#0000000012' },
    });
    // A prefix is sent as its range (DynamoDB Local reads a whole partition for `begins_with`).
    expect(keyCondition(keys.ticketItems(3), { beginsWith: keys.scanRecordPrefix })).toEqual({
      KeyConditionExpression: 'PK = :keyPartition AND SK BETWEEN :keySort AND :keySortEnd',
      ExpressionAttributeValues: { ':keyPartition': 'TICKET#3', ':keySort': 'SCAN#', ':keySortEnd': 'SCAN#\u{10FFFF}' },
    });
    expect(
      keyCondition(keys.customerOrders(5), keys.timeRange({ from: '2026-01-01', to: '2026-02-01' }))
        .KeyConditionExpression,
    ).toBe('GSI1PK = :keyPartition AND GSI1SK BETWEEN :keySort AND :keySortEnd');
  });

  it('places an item where the same declaration reads it', () => {
    const partition = keys.typeTickets(9);
    const placed = keys.eventEntryIndexes(1, 9, 44);
    const { ExpressionAttributeValues } = keyCondition(partition, { equals: keys.ticketSort(44) });
    expect(Object.values(placed)).toEqual(expect.arrayContaining(Object.values(ExpressionAttributeValues)));
    // A write-sharded list places an item in its id's shard, which never moves.
    const shard = keys.eventTickets(1, 44 % INDEX_SHARDS.eventTickets);
    expect(Object.values(placed)).toContain(shard.value);
    expect(Object.values(keys.listEntryIndexes(1, 0, 2, 45))).toContain(
      keys.allTickets(45 % INDEX_SHARDS.allTickets).value,
    );
    expect(() => placedIn([keys.ticketItems(1), 'x'])).toThrow(/table partition/);
  });
});
