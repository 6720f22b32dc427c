import * as z from '#shared/schema';
import { BibPath } from '#shared/tickets/contract/ticket';
import { route } from '#shared/http/route';
import { isBibAvailable } from '#shared/tickets/use-cases/older-ticket-reads';

/** Spec: `{ available: boolean }`, without an envelope. */
export const handler = route(
  'GET /ticket/{ticketId}/is-bib-available/{bib}',
  { path: BibPath },
  async ({ path, caller }) => ({
    body: { available: await isBibAvailable(path.ticketId, path.bib, caller.eventScope) },
  }),
);

export const answer = () => z.strictObject({ available: z.boolean() });
