import * as z from '#shared/schema';
import { listTicketWaivers } from '#shared/tickets/use-cases/ticket-waivers';
import { SIGNED_STATUSES } from '#shared/events/domain/waivers';
import { PathId } from '#shared/http/path-params';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { TicketWaiverResource } from '#shared/tickets/contract/tickets';
import { route } from '#shared/http/route';

export const handler = route(
  'GET /tickets/{id}/waivers',
  {
    path: PathId,
    query: z.strictObject({ signedStatus: z.optional(z.enum(SIGNED_STATUSES)) }),
  },
  async ({ path, query, caller }) => dataOnly(await listTicketWaivers(path.id, query.signedStatus, caller.eventScope)),
);

export const answer = () => DataAnswer(z.array(TicketWaiverResource));
