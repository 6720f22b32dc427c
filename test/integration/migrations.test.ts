import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { advanceClock, now, resetClock } from '#shared/clock';
import { db, tableName } from '#shared/data/client';
import {
  forgetMigration,
  holdMigration,
  migrationCheckpoint,
  readLedger,
} from '#shared/migrations/data/migration-ledger';
import { MIGRATIONS, type Migration } from '#shared/migrations/use-cases/catalogue';
import { migrationCommand } from '#shared/migrations/use-cases/commands';
import { rerunMigration, runMigrations } from '#shared/migrations/use-cases/runner';
import { countWrites, describeWrites } from '../support/dynamo-writes.ts';
import { createOwnTable, dropOwnTable } from '../support/fuzz-table.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so its ledger starts empty.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-migrations-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

const FOREVER = Number.POSITIVE_INFINITY;
const UNITS = 3;

/** The units of work each migration of this file did, in order (a resumed run goes on, it does not start again). */
let done = new Map<number, number[]>();

/**
 * A migration as README.md (shared/migrations/) describes one: `UNITS` units of work, each
 * an idempotent Put, the last one finished saved in its checkpoint, `stop` asked before each.
 */
function testMigration(id: number): Migration {
  return {
    id,
    name: `test-${id}`,
    summary: `${UNITS} marker items`,
    async run({ run, restart, stop, progress }) {
      const checkpoint = migrationCheckpoint<number>(id, run);
      let next = restart ? 0 : ((await checkpoint.read()) ?? -1) + 1;
      let written = 0;
      for (; next < UNITS; next++) {
        if (stop()) return { stopped: true };
        await db.send(
          new PutCommand({ TableName: tableName(), Item: { PK: `MIGRATION_TEST#${id}`, SK: `UNIT#${next}` } }),
        );
        done.set(id, [...(done.get(id) ?? []), next]);
        written++;
        await checkpoint.write(next);
        progress(next + 1, UNITS);
      }
      return { written };
    },
  };
}

const catalogue = [1, 2, 3, 4].map(testMigration);
const LIST = 3;

/** The catalogue with one migration changed. */
const withMigration = (id: number, change: (migration: Migration) => Partial<Migration>): Migration[] =>
  catalogue.map((migration) => (migration.id === id ? { ...migration, ...change(migration) } : migration));

/** A `stop` that lets `units` units of work through, then stops (as the runner's deadline would). */
const stopAfter = (units: number) => {
  let asked = 0;
  return () => asked++ >= units;
};

const statuses = async () =>
  Object.fromEntries([...(await readLedger())].map(([id, entry]) => [id, entry.owner ? 'held' : entry.status]));

/** From an empty ledger, whichever of this file's tests ran before (the run shuffles their order). */
async function forgetAll() {
  for (const { id } of catalogue) expect(await forgetMigration(id, now().toISOString())).toBe(true);
  done = new Map();
}

beforeAll(async () => {
  await createOwnTable(table.name);
}, 60_000);

afterEach(() => resetClock());

afterAll(async () => {
  await dropOwnTable(table.name);
  if (table.previous === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = table.previous;
});

describe('data migrations (shared/migrations/use-cases/runner.ts)', () => {
  it("the release's catalogue is empty: the first table is the shape the code writes, and a run writes only nothing", async () => {
    expect(MIGRATIONS).toEqual([]);
    const run = await countWrites(() => runMigrations({ owner: 'release', stopAt: FOREVER }));
    expect(run.result).toEqual({ state: 'done', ran: [] });
    expect(run.writes.items, describeWrites(run.writes)).toEqual([]);
  });

  it('run in order; one stopped half-way goes on from its checkpoint and finishes once; a second run writes nothing', async () => {
    await forgetAll();
    const stopping = withMigration(LIST, (migration) => ({
      run: (options) => migration.run({ ...options, stop: stopAfter(1) }),
    }));
    expect(await runMigrations({ owner: 'first', stopAt: FOREVER, catalogue: stopping })).toEqual({
      state: 'stopped',
      ran: [1, 2],
      at: LIST,
    });
    // Released (no lease), not done; the later ones not started.
    expect(await statuses()).toEqual({ 1: 'done', 2: 'done', 3: 'running' });

    expect(await runMigrations({ owner: 'second', stopAt: FOREVER, catalogue })).toEqual({
      state: 'done',
      ran: [3, 4],
    });
    // The first run did one unit of migration 3; the second the rest, not that one again.
    expect(done.get(LIST)).toEqual([0, 1, 2]);
    const ledger = await readLedger();
    expect(ledger.get(LIST)).toMatchObject({ status: 'done', runs: 2, outcome: { written: 2 } });
    expect(ledger.get(1)).toMatchObject({ status: 'done', runs: 1, outcome: { written: UNITS } });

    const again = await countWrites(() => runMigrations({ owner: 'third', stopAt: FOREVER, catalogue }));
    expect(again.result).toEqual({ state: 'done', ran: [] });
    expect(again.writes.items, describeWrites(again.writes)).toEqual([]);
  });

  it('does not start a migration whose predecessor is not done; a rerun starts from the beginning', async () => {
    await runMigrations({ owner: 'setup', stopAt: FOREVER, catalogue });
    expect(await rerunMigration(2)).toBe(true);
    expect(await rerunMigration(LIST)).toBe(true);
    done = new Map();

    expect(await runMigrations({ owner: 'only', stopAt: FOREVER, only: LIST, catalogue })).toEqual({
      state: 'waiting',
      ran: [],
      at: LIST,
      for: 2,
    });
    expect((await readLedger()).has(LIST)).toBe(false);
    expect(await runMigrations({ owner: 'all', stopAt: FOREVER, catalogue })).toEqual({ state: 'done', ran: [2, 3] });
    // Forgotten, so from its start, whatever its checkpoint said.
    expect(done.get(LIST)).toEqual([0, 1, 2]);
  });

  it("leaves a migration another runner holds to it until that runner's lease runs out", async () => {
    await runMigrations({ owner: 'setup', stopAt: FOREVER, catalogue });
    expect(await rerunMigration(4)).toBe(true);
    const until = new Date(now().getTime() + 60_000).toISOString();
    expect(await holdMigration(catalogue[3]!, 'other', { now: now().toISOString(), until })).toBe(true);
    // Neither a run nor a rerun takes it from its holder.
    expect(await runMigrations({ owner: 'mine', stopAt: FOREVER, catalogue })).toEqual({
      state: 'held',
      ran: [],
      at: 4,
    });
    expect(await rerunMigration(4)).toBe(false);

    advanceClock(61_000);
    expect(await runMigrations({ owner: 'mine', stopAt: FOREVER, catalogue })).toEqual({ state: 'done', ran: [4] });
  });

  it('records a failure in the ledger, releases the migration, and goes on with it next time', async () => {
    await runMigrations({ owner: 'setup', stopAt: FOREVER, catalogue });
    expect(await rerunMigration(2)).toBe(true);
    const failing = withMigration(2, () => ({ run: () => Promise.reject(new Error('throttled for good')) }));
    await expect(runMigrations({ owner: 'failing', stopAt: FOREVER, catalogue: failing })).rejects.toThrow(
      'throttled for good',
    );
    const failed = (await readLedger()).get(2);
    expect(failed).toMatchObject({ status: 'running', lastError: 'Error: throttled for good' });
    expect(failed?.owner).toBeUndefined();

    expect(await runMigrations({ owner: 'fixed', stopAt: FOREVER, catalogue })).toEqual({ state: 'done', ran: [2] });
    expect((await readLedger()).get(2)?.lastError).toBeUndefined();
  });

  it('stops taking work at its deadline: nothing starts once stopAt has passed', async () => {
    await runMigrations({ owner: 'setup', stopAt: FOREVER, catalogue });
    expect(await rerunMigration(LIST)).toBe(true);
    expect(await runMigrations({ owner: 'late', stopAt: now().getTime() - 1, catalogue })).toEqual({
      state: 'stopped',
      ran: [],
      at: LIST,
    });
    expect(await runMigrations({ owner: 'on time', stopAt: FOREVER, catalogue })).toEqual({
      state: 'done',
      ran: [LIST],
    });
  });

  it("answers the ledger and the table's GSIs as the deployed runner does for npm run migrations and preflight", async () => {
    await runMigrations({ owner: 'setup', stopAt: FOREVER, catalogue });
    expect(await rerunMigration(4)).toBe(true);
    const answer = await migrationCommand(
      { action: 'ledger' },
      { functionName: 'unused', requestId: 'r', stopAt: 0 },
      catalogue,
    );
    expect(answer).toMatchObject({ tableIndexes: ['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5', 'GSI6'] });
    const ledger = (answer as { ledger: { id: number; name: string; status: string; runs: number }[] }).ledger;
    expect(ledger.map(({ id, name, status }) => [id, name, status])).toEqual(
      catalogue.map(({ id, name }) => [id, name, id === 4 ? 'pending' : 'done']),
    );
  });
});
