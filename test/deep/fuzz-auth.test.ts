import { vi } from 'vitest';
import { routes, type RouteRow } from '#shared/routes';
import { ALLOWED_ORIGIN } from '../support/env.ts';
import { fuzzAdministrator, fuzzFile } from '../support/fuzz-world.ts';
import { useSiteAuthMethod } from '../support/staff.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so the before/after comparison sees only its own requests.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-fuzz-auth-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

/** The identity-provider routes answer 403 in legacy mode: fuzzed in idp mode, so inputs reach their validation. */
const IDP_ROUTES = new Set([
  '/auth/login',
  '/auth/vendor/login',
  '/auth/callback',
  '/auth/logout',
  '/auth/change-password',
]);

fuzzFile({
  title: 'authentication (identity provider, session)',
  tableName: table.name,
  previousTableName: table.previous,
  // The legacy password routes are in fuzz-auth-legacy.test.ts: their password hashing is most of the time, so vitest runs the two side by side.
  rows: routes.filter((row) => row.path.startsWith('/auth/') && !row.path.startsWith('/auth/legacy/')),
  async seed() {
    const admin = await fuzzAdministrator('auth');
    return {
      admin,
      known: {
        redirect_uri: [`${ALLOWED_ORIGIN}/after-login`, 'https://evil.example/', `${ALLOWED_ORIGIN}@evil.example`],
        return_to: [`${ALLOWED_ORIGIN}/`, '//evil.example'],
      },
      pathKnown: () => [],
    };
  },
  meantWrites: [],
  around: (row: RouteRow) => {
    if (!IDP_ROUTES.has(row.path)) return () => undefined;
    useSiteAuthMethod('idp');
    return () => useSiteAuthMethod('legacy');
  },
});
