import { vi } from 'vitest';
import { routes } from '#shared/routes';
import { seedTicketFixture } from '../support/fuzz-seed.ts';
import { fuzzAdministrator, fuzzFile } from '../support/fuzz-world.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so the before/after comparison sees only its own requests.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-fuzz-tickets-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

fuzzFile({
  title: 'tickets',
  tableName: table.name,
  previousTableName: table.previous,
  rows: routes.filter((row) => row.path === '/tickets' || row.path.startsWith('/tickets/')),
  async seed() {
    const admin = await fuzzAdministrator('tickets');
    const fixture = await seedTicketFixture();
    return { admin, known: fixture.known, pathKnown: () => fixture.tickets };
  },
  meantWrites: [
    // A refused scan is kept on the ticket's partition on purpose: the gate's audit trail (shared/gate/data/check-ins.ts).
    {
      route: 'POST /tickets/{id}/check-in',
      key: /^TICKET#\d+\|SCAN#/,
      reason: 'a refused scan is recorded for the audit trail',
    },
    // The new ticket's id is allocated alongside the ticket read (transfer-ticket.ts, for latency): a refusal leaves a gap in the ids, as a database sequence does; no record is written.
    {
      route: 'POST /tickets/{id}/transfer',
      key: /^SEQUENCE#TICKET\|SEQUENCE$/,
      reason: 'the id allocated for the replacement ticket is not given back',
    },
  ],
});
