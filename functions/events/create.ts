import { SingleAnswer } from '#shared/http/answers';
import { EventResource, NewEventBody } from '#shared/events/contract/event';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { createEventFor } from '#shared/events/use-cases/create-event';

/** 201 with the whole draft event, every id in it; unscoped administrators only (403 otherwise). */
export const handler = route('POST /events', { body: NewEventBody, status: 201 }, async ({ body, caller }) => ({
  ...single(await createEventFor(caller, body)),
  status: 201,
}));

export const answer = () => SingleAnswer(EventResource);
