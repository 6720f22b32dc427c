import { PathId } from '#shared/http/path-params';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { CheckInQuery, TicketResource } from '#shared/tickets/contract/tickets';
import { checkIn } from '#shared/gate/use-cases/check-in';

/** No body schema: any body is refused with 400 (spec: the body must be empty). */
export const handler = route(
  'POST /tickets/{id}/check-in',
  { path: PathId, query: CheckInQuery },
  async ({ path, query, caller, idempotency }) =>
    dataOnly(
      await checkIn(path.id, {
        ...query,
        adminId: caller.id,
        eventScope: caller.eventScope,
        idempotency,
      }),
    ),
);

export const answer = () => DataAnswer(TicketResource);
