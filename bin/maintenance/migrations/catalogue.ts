import { backfillCustomerTicketCounts } from './backfill-customer-ticket-counts.ts';
import { backfillEventUpdates } from './backfill-event-updates.ts';
import { backfillListPositions } from './backfill-list-positions.ts';
import { backfillPortalEvents } from './backfill-portal-events.ts';
import { backfillTicketIndexes } from './backfill-ticket-indexes.ts';
import { backfillTicketLists } from './backfill-ticket-lists.ts';
import { indexWebhookDue } from './index-webhook-due.ts';
import { sealWebhookSecrets } from './seal-webhook-secrets.ts';
import type { RunOptions, Stopped } from './runs.ts';

/**
 * The data migrations, in the order they run (runner.ts): each an idempotent backfill that
 * resumes from its checkpoint, recorded in the ledger (shared/data/migration-ledger.ts) when
 * done. A release that changes how items are stored adds one at the end; none is ever
 * renumbered or removed (a stage's ledger names them by id). Until one is done, the reads
 * that need it fall back as its marks say (each backfill's comment), so the API stays
 * correct while it runs.
 */
export interface Migration {
  id: number;
  name: string;
  /** What it writes, for the ledger's readers. */
  summary: string;
  run(options: RunOptions): Promise<Stopped & object>;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'ticket-indexes',
    summary: "every ticket's purchase and update-time index keys and its barcode's unique item",
    run: backfillTicketIndexes,
  },
  {
    id: 2,
    name: 'ticket-lists',
    summary: "every ticket's list and search entries, the filter counts recounted, events marked",
    run: backfillTicketLists,
  },
  {
    id: 3,
    name: 'list-positions',
    summary: "each event's position blocks, spans and purchase counts recounted",
    run: backfillListPositions,
  },
  {
    id: 4,
    name: 'customer-ticket-counts',
    summary: "each customer's ticket count and list positions recounted",
    run: backfillCustomerTicketCounts,
  },
  {
    id: 5,
    name: 'event-updates',
    summary: "every ticket in its event's own update-time shards, events marked",
    run: backfillEventUpdates,
  },
  {
    id: 6,
    name: 'portal-events',
    summary:
      "every published event's search entries, every customer's event links on their start-ordered indexes, the published events counted",
    run: backfillPortalEvents,
  },
  {
    id: 7,
    name: 'webhook-secrets',
    summary: "every webhook's signing secrets sealed under the current webhook secrets key",
    run: sealWebhookSecrets,
  },
  {
    id: 8,
    name: 'webhook-due',
    summary: "every pending webhook delivery placed in its subscription's due index",
    run: indexWebhookDue,
  },
];
