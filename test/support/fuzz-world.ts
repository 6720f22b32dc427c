import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '#shared/auth/passwords';
import { issueToken } from '#shared/identity/services/token-issuer';
import { epochSeconds } from '#shared/clock';
import { createAdministrator } from '#shared/identity/data/administrators';
import { readSessionVersion } from '#shared/identity/data/session-versions';
import { routeKey, type RouteRow } from '#shared/routes';
import { PERMISSIONS } from '#shared/auth/permissions';
import { FUZZ_RUNS, fuzzRoute, summary, type FuzzWorld, type MeantWrite, type RouteStats } from './fuzz-harness.ts';
import { createOwnTable, dropOwnTable, TableSnapshots } from './fuzz-table.ts';
import type { Known } from './fuzz-inputs.ts';

/**
 * The common part of every fuzz file: an administrator with every permission (and a
 * password, so the password routes can succeed too), tokens kept current across the
 * logouts and password changes the fuzzing itself makes, and the vitest wiring.
 */
export const ADMIN_PASSWORD = 'fuzz-admin-password-1';

export interface Caller {
  kind: 'admin' | 'customer';
  id: number;
  login: string;
}

export class Sessions {
  private readonly tokens = new Map<string, { version: number; token: string }>();
  constructor(readonly callers: Caller[]) {}

  async token(caller: Caller): Promise<string> {
    const version = await readSessionVersion(caller.kind, caller.id);
    const held = this.tokens.get(`${caller.kind}:${caller.id}`);
    if (held?.version === version) return held.token;
    const token = await (caller.kind === 'admin'
      ? issueToken({
          kind: 'admin',
          id: caller.id,
          login: caller.login,
          permissions: [...PERMISSIONS],
          vendorUser: false,
          authTime: epochSeconds(),
          sessionVersion: version,
        })
      : issueToken({
          kind: 'customer',
          id: caller.id,
          email: caller.login,
          authTime: epochSeconds(),
          sessionVersion: version,
        }));
    this.tokens.set(`${caller.kind}:${caller.id}`, { version, token });
    return token;
  }

  /** Tokens are checked against the session version lazily (`token`): nothing to do until the next request. */
  async refresh(): Promise<void> {
    for (const caller of this.callers) await this.token(caller);
  }
}

export async function fuzzAdministrator(label: string): Promise<Caller> {
  const login = `fuzz-${label}@test.local`;
  const admin = await createAdministrator({
    login,
    email: login,
    name: 'Fuzz Staff',
    permissions: [...PERMISSIONS],
    vendorUser: 0,
    passwordHash: await hashPassword(ADMIN_PASSWORD),
  });
  return { kind: 'admin', id: admin.id, login };
}

export interface FuzzFileOptions {
  title: string;
  tableName: string;
  previousTableName: string | undefined;
  rows: readonly RouteRow[];
  /** Seeds the table; returns what the generators should know about it. */
  seed(): Promise<{
    admin: Caller;
    customer?: Caller;
    known: Known;
    pathKnown: FuzzWorld['pathKnown'];
    bodies?: FuzzWorld['bodies'];
  }>;
  meantWrites: readonly MeantWrite[];
  /** Runs around each route (switching the sign-in mode for the identity-provider routes). */
  around?: (row: RouteRow) => () => void;
}

/** One `it` per route, on a table of the file's own; the summary is printed once, after the last route. */
export function fuzzFile(options: FuzzFileOptions): void {
  const results: RouteStats[] = [];
  let world: FuzzWorld;

  beforeAll(async () => {
    await createOwnTable(options.tableName);
    const seeded = await options.seed();
    const sessions = new Sessions([seeded.admin, ...(seeded.customer ? [seeded.customer] : [])]);
    const own = (row: RouteRow) => (row.auth.kind === 'customer' ? seeded.customer! : seeded.admin);
    world = {
      snapshots: new TableSnapshots(options.tableName),
      known: seeded.known,
      pathKnown: seeded.pathKnown,
      token: async (row) => (row.auth.kind === 'public' ? undefined : sessions.token(own(row))),
      // A public route gets an administrator's token (ignored); a guarded one the other audience's, or none.
      otherToken: async (row) =>
        row.auth.kind === 'admin'
          ? seeded.customer
            ? sessions.token(seeded.customer)
            : undefined
          : sessions.token(seeded.admin),
      afterSuccess: () => sessions.refresh(),
      meantWrites: options.meantWrites,
      ...(seeded.bodies ? { bodies: seeded.bodies } : {}),
    };
  }, 120_000);

  afterAll(async () => {
    world?.snapshots.close();
    await dropOwnTable(options.tableName);
    if (options.previousTableName === undefined) delete process.env.TABLE_NAME;
    else process.env.TABLE_NAME = options.previousTableName;
    if (results.length) console.log(summary(options.title, results));
  });

  describe(`fuzz: ${options.title}`, () => {
    // Reads first, deletes last: they would leave the other routes only missing ids.
    const order = (row: RouteRow) =>
      row.method === 'GET'
        ? 0
        : /^DELETE \/tickets\/\{id\}$|bulk-delete/.test(routeKey(row))
          ? 3
          : /^DELETE|transfer/.test(routeKey(row))
            ? 2
            : 1;
    const rows = [...options.rows].sort((a, b) => order(a) - order(b));
    it.each(rows.map((row) => [routeKey(row), row] as const))(
      '%s: every generated input answers below 500 and a refusal changes nothing',
      async (_key, row) => {
        const restore = options.around?.(row);
        let stats: RouteStats;
        try {
          stats = await fuzzRoute(row, world);
        } finally {
          restore?.();
        }
        results.push(stats);
        expect(stats.inputs).toBeGreaterThanOrEqual(Math.min(FUZZ_RUNS, 200));
        expect(stats.failures).toEqual([]);
        expect(stats.s5xx).toBe(0);
      },
      Math.max(120_000, FUZZ_RUNS * 500),
    );
  });
}
