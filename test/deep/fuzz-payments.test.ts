import { vi } from 'vitest';
import { routes } from '#shared/routes';
import { fuzzAdministrator, fuzzFile } from '../support/fuzz-world.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so the before/after comparison sees only its own requests.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-fuzz-payments-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

/** Stripe's webhook: no fuzzed body carries a valid signature, so every one is refused (400) and writes nothing. */
fuzzFile({
  title: 'payments',
  tableName: table.name,
  previousTableName: table.previous,
  rows: routes.filter((row) => row.path.startsWith('/payments/')),
  async seed() {
    const admin = await fuzzAdministrator('payments');
    return { admin, known: {}, pathKnown: () => [] };
  },
  meantWrites: [],
});
