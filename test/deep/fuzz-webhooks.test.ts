import { vi } from 'vitest';
import { routes } from '#shared/routes';
import { createWebhookFor } from '#shared/webhooks/use-cases/subscriptions';
import { PERMISSIONS } from '#shared/auth/permissions';
import { pingWebhookFor } from '#shared/webhooks/use-cases/delivery-routes';
import { fuzzAdministrator, fuzzFile } from '../support/fuzz-world.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so the before/after comparison sees only its own requests.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-fuzz-webhooks-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

/** Nothing listens on port 9 here: pings and retries fail fast, and are recorded as pending deliveries. */
const RECEIVER = 'http://127.0.0.1:9/hooks';

fuzzFile({
  title: 'webhooks',
  tableName: table.name,
  previousTableName: table.previous,
  rows: routes.filter((row) => row.path.startsWith('/webhooks')),
  async seed() {
    const admin = await fuzzAdministrator('webhooks');
    const caller = { id: admin.id, eventScope: undefined, permissions: [...PERMISSIONS] };
    const hooks = await Promise.all(
      [1, 2, 3].map((n) =>
        createWebhookFor(caller, { url: RECEIVER, events: ['ticket.updated', 'ticket.checked_in'], eventIds: [n] }),
      ),
    );
    const deliveries = await Promise.all(hooks.map((hook) => pingWebhookFor(caller, hook.id)));
    const ids = hooks.map((hook) => hook.id);
    return {
      admin,
      known: {
        url: [RECEIVER],
        events: [['ticket.updated'], ['ticket.created', 'ticket.deleted']],
        eventIds: [[1], [2, 3], null],
        id: ids,
        _cursor: deliveries.map((delivery) => delivery.id),
      },
      pathKnown: (_row, parameter) => (parameter === 'deliveryId' ? deliveries.map((d) => d.id) : ids),
    };
  },
  meantWrites: [
    // The id is allocated before the count's condition is met (webhooks/data/webhooks.ts): a refusal at the maximum leaves a gap, as a sequence does.
    { route: 'POST /webhooks', key: /^SEQUENCE#webhook\|/, reason: 'an id drawn before a 409 at the maximum' },
  ],
});
