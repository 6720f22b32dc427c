import { vi } from 'vitest';
import { routes } from '#shared/routes';
import { seedTicketFixture } from '../support/fuzz-seed.ts';
import { fuzzAdministrator, fuzzFile } from '../support/fuzz-world.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so the before/after comparison sees only its own requests.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-fuzz-older-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

fuzzFile({
  title: 'older ticket routes',
  tableName: table.name,
  previousTableName: table.previous,
  rows: routes.filter((row) => row.path === '/ticket' || row.path.startsWith('/ticket/')),
  async seed() {
    const admin = await fuzzAdministrator('older');
    const fixture = await seedTicketFixture();
    return {
      admin,
      known: {
        ...fixture.known,
        claimantEmail: ['claimant@example.test', 'Claimant@Example.test'],
        claimantuserId: ['user-1'],
      },
      pathKnown: (_row, parameter) => (parameter === 'bib' ? fixture.bibs : fixture.tickets),
    };
  },
  meantWrites: [
    // Claim mails are capped per ticket and per staff member before the claim is decided (the `ticket` tag in the OpenAPI): a refused claim still took its slot.
    {
      route: 'POST /ticket/{ticketId}/claim',
      key: /^RATE#CLAIM_MAIL_/,
      reason: 'claim mails are limited per ticket and per staff member, refusals included',
    },
    {
      route: 'POST /ticket/{ticketId}/claimant',
      key: /^RATE#CLAIM_MAIL_/,
      reason: 'claim mails are limited per ticket and per staff member, refusals included',
    },
  ],
});
