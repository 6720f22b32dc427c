import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { advanceClock, now, resetClock } from '#shared/clock';
import { forgetMigration, holdMigration, readLedger } from '#shared/data/migration-ledger';
import { MIGRATIONS, type Migration } from '../../bin/maintenance/migrations/catalogue.ts';
import { migrationCommand } from '../../bin/maintenance/migrations/deployed-runner.ts';
import { recordIds } from '../../bin/maintenance/migrations/runs.ts';
import { rerunMigration, runMigrations } from '../../bin/maintenance/migrations/runner.ts';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { countWrites, describeWrites } from '../support/dynamo-writes.ts';
import { createOwnTable, dropOwnTable } from '../support/fuzz-table.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so its ledger starts empty.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-migrations-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

const LIST_POSITIONS = 3;
const FOREVER = Number.POSITIVE_INFINITY;

/** The catalogue with one migration changed. */
const withMigration = (id: number, change: (migration: Migration) => Partial<Migration>): Migration[] =>
  MIGRATIONS.map((migration) => (migration.id === id ? { ...migration, ...change(migration) } : migration));

/** A `stop` that lets `units` units of work through, then stops (as the runner's deadline would). */
const stopAfter = (units: number) => {
  let asked = 0;
  return () => asked++ >= units;
};

const statuses = async () =>
  Object.fromEntries([...(await readLedger())].map(([id, entry]) => [id, entry.owner ? 'held' : entry.status]));

beforeAll(async () => {
  await createOwnTable(table.name);
  for (let n = 0; n < 3; n++) {
    const event = await seedEvent();
    await seedTickets(event, event.ticketTypes[0]!.id, 2);
  }
}, 60_000);

afterEach(() => resetClock());

afterAll(async () => {
  await dropOwnTable(table.name);
  if (table.previous === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = table.previous;
});

describe('data migrations (bin/maintenance/migrations/runner.ts)', () => {
  it('run in order; one stopped half-way goes on from its checkpoint and finishes once; a second run writes nothing', async () => {
    // From an empty ledger, whichever of this file's tests ran before (the run shuffles their order).
    for (const { id } of MIGRATIONS) expect(await forgetMigration(id, now().toISOString())).toBe(true);
    const stopping = withMigration(LIST_POSITIONS, (migration) => ({
      run: (options) => migration.run({ ...options, stop: stopAfter(1) }),
    }));
    expect(await runMigrations({ owner: 'first', stopAt: FOREVER, catalogue: stopping })).toEqual({
      state: 'stopped',
      ran: [1, 2],
      at: LIST_POSITIONS,
    });
    // Released (no lease), not done; the later ones not started.
    expect(await statuses()).toEqual({ 1: 'done', 2: 'done', 3: 'running' });

    expect(await runMigrations({ owner: 'second', stopAt: FOREVER })).toEqual({
      state: 'done',
      ran: [3, 4, 5, 6, 7, 8],
    });
    const ledger = await readLedger();
    // The first run did the list across events (one unit); the second every event, not that list again.
    expect(ledger.get(LIST_POSITIONS)).toMatchObject({ status: 'done', runs: 2 });
    expect(ledger.get(LIST_POSITIONS)?.outcome?.events).toBe((await recordIds('EVENT')).length);
    expect(ledger.get(5)?.outcome).toMatchObject({ events: (await recordIds('EVENT')).length, beforeEntries: [] });
    expect(ledger.get(6)?.outcome).toMatchObject({ links: 0 });
    expect(ledger.get(7)?.outcome).toMatchObject({ sealed: 0 }); // this table has no webhooks
    expect(ledger.get(8)?.outcome).toMatchObject({ placed: 0 }); // nor deliveries

    const again = await countWrites(() => runMigrations({ owner: 'third', stopAt: FOREVER }));
    expect(again.result).toEqual({ state: 'done', ran: [] });
    expect(again.writes.items, describeWrites(again.writes)).toEqual([]);
  });

  it('does not start a migration whose predecessor is not done', async () => {
    await runMigrations({ owner: 'setup', stopAt: FOREVER });
    expect(await rerunMigration(2)).toBe(true);
    expect(await rerunMigration(LIST_POSITIONS)).toBe(true);

    expect(await runMigrations({ owner: 'only', stopAt: FOREVER, only: LIST_POSITIONS })).toEqual({
      state: 'waiting',
      ran: [],
      at: LIST_POSITIONS,
      for: 2,
    });
    expect((await readLedger()).has(LIST_POSITIONS)).toBe(false);
    expect(await runMigrations({ owner: 'all', stopAt: FOREVER })).toEqual({ state: 'done', ran: [2, 3] });
  });

  it("leaves a migration another runner holds to it until that runner's lease runs out", async () => {
    await runMigrations({ owner: 'setup', stopAt: FOREVER });
    expect(await rerunMigration(4)).toBe(true);
    const until = new Date(now().getTime() + 60_000).toISOString();
    expect(await holdMigration(MIGRATIONS[3]!, 'other', { now: now().toISOString(), until })).toBe(true);
    // Neither a run nor a rerun takes it from its holder.
    expect(await runMigrations({ owner: 'mine', stopAt: FOREVER })).toEqual({ state: 'held', ran: [], at: 4 });
    expect(await rerunMigration(4)).toBe(false);

    advanceClock(61_000);
    expect(await runMigrations({ owner: 'mine', stopAt: FOREVER })).toEqual({ state: 'done', ran: [4] });
  });

  it('records a failure in the ledger, releases the migration, and goes on with it next time', async () => {
    await runMigrations({ owner: 'setup', stopAt: FOREVER });
    expect(await rerunMigration(5)).toBe(true);
    const failing = withMigration(5, () => ({
      run: () => Promise.reject(new Error('throttled for good')),
    }));
    await expect(runMigrations({ owner: 'failing', stopAt: FOREVER, catalogue: failing })).rejects.toThrow(
      'throttled for good',
    );
    const failed = (await readLedger()).get(5);
    expect(failed).toMatchObject({ status: 'running', lastError: 'Error: throttled for good' });
    expect(failed?.owner).toBeUndefined();

    expect(await runMigrations({ owner: 'fixed', stopAt: FOREVER })).toEqual({ state: 'done', ran: [5] });
    expect((await readLedger()).get(5)?.lastError).toBeUndefined();
  });

  it('stops taking work at its deadline: nothing starts once stopAt has passed', async () => {
    await runMigrations({ owner: 'setup', stopAt: FOREVER });
    expect(await rerunMigration(LIST_POSITIONS)).toBe(true);
    expect(await runMigrations({ owner: 'late', stopAt: now().getTime() - 1 })).toEqual({
      state: 'stopped',
      ran: [],
      at: LIST_POSITIONS,
    });
    expect(await runMigrations({ owner: 'on time', stopAt: FOREVER })).toEqual({
      state: 'done',
      ran: [LIST_POSITIONS],
    });
  });

  it("answers the ledger and the table's GSIs as the deployed runner does for npm run migrations and preflight", async () => {
    await runMigrations({ owner: 'setup', stopAt: FOREVER });
    expect(await rerunMigration(4)).toBe(true);
    const answer = await migrationCommand({ action: 'ledger' }, { functionName: 'unused', requestId: 'r', stopAt: 0 });
    expect(answer).toMatchObject({ tableIndexes: ['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5', 'GSI6'] });
    const ledger = (answer as { ledger: { id: number; name: string; status: string; runs: number }[] }).ledger;
    expect(ledger.map(({ id, name, status }) => [id, name, status])).toEqual(
      MIGRATIONS.map(({ id, name }) => [id, name, id === 4 ? 'pending' : 'done']),
    );
  });
});
