import { vi } from 'vitest';
import { routes } from '#shared/routes';
import { seedTicketFixture } from '../support/fuzz-seed.ts';
import { fuzzAdministrator, fuzzFile } from '../support/fuzz-world.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so the before/after comparison sees only its own requests.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-fuzz-gate-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

/** The gate's routes (README "The gate offline"): generated scans and list walks reach real events and barcodes. */
fuzzFile({
  title: 'gate',
  tableName: table.name,
  previousTableName: table.previous,
  rows: routes.filter((row) => row.path === '/scans' || row.path.startsWith('/gate-lists/')),
  async seed() {
    const admin = await fuzzAdministrator('gate');
    const fixture = await seedTicketFixture();
    const events = fixture.events.map((event) => event.id);
    return { admin, known: fixture.known, pathKnown: () => events };
  },
  // Every refusal of POST /scans is a 400 or 404 before anything is read or written; a per-scan refusal is a 200.
  meantWrites: [],
});
