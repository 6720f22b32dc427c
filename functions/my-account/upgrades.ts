import * as z from '#shared/schema';
import { PathTicketId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { UpgradeOptionResource } from '#shared/portal/contract/my-account';
import { ticketUpgradeOptions } from '#shared/portal/use-cases/upgrades';

/** `{count, data}`: the options, cheapest first; empty when the ticket cannot be upgraded. */
export const handler = route(
  'GET /my-account/upgrades/{ticketId}',
  { path: PathTicketId },
  async ({ path, caller }) => {
    const options = await ticketUpgradeOptions(caller.id, path.ticketId);
    return { body: { count: options.length, data: options } };
  },
);

export const answer = () => z.strictObject({ count: z.int(), data: z.array(UpgradeOptionResource) });
