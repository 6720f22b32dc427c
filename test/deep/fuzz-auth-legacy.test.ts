import { vi } from 'vitest';
import { routes } from '#shared/routes';
import { ADMIN_PASSWORD, fuzzAdministrator, fuzzFile } from '../support/fuzz-world.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so the before/after comparison sees only its own requests.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-fuzz-auth-legacy-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

/** Failed password attempts are counted on purpose (README "Throttled logins"): the counters, and the stage's log-hashing key the first failure makes (shared/identity/data/log-key.ts), are the only writes a refusal may make. */
const THROTTLE = /^(RATE#|LOG_KEY\|)/;

fuzzFile({
  title: 'authentication (legacy passwords)',
  tableName: table.name,
  previousTableName: table.previous,
  rows: routes.filter((row) => row.path.startsWith('/auth/legacy/')),
  async seed() {
    const admin = await fuzzAdministrator('auth');
    return {
      admin,
      known: {
        login: [admin.login, admin.login.toUpperCase()],
        email: [admin.login],
        password: [ADMIN_PASSWORD],
        oldPassword: [ADMIN_PASSWORD],
      },
      pathKnown: () => [],
    };
  },
  meantWrites: [
    {
      route: 'POST /auth/legacy/login',
      key: THROTTLE,
      reason: 'a failed login counts against the account and the client address',
    },
    {
      route: 'POST /auth/legacy/change-password',
      key: THROTTLE,
      reason: 'a wrong current password counts as a failed login',
    },
    {
      route: 'POST /auth/legacy/forgot-password',
      key: THROTTLE,
      reason: 'reset mails are limited per address and per client, refusals included',
    },
    {
      route: 'POST /auth/legacy/reset-password',
      key: THROTTLE,
      reason: 'a wrong reset token counts against the client address',
    },
  ],
});
