import { SingleAnswer } from '#shared/http/answers';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { EventSalesResource } from '#shared/selling/contract/sales';
import { eventSales } from '#shared/selling/use-cases/event-sales';

/** The event's sales figures per ticket type and in total. */
export const handler = route('GET /events/{id}/sales', { path: PathId }, async ({ path, caller }) =>
  single(await eventSales(caller, path.id)),
);

export const answer = () => SingleAnswer(EventSalesResource);
