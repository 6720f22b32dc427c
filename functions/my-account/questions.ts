import * as z from '#shared/schema';
import { PageAnswer } from '#shared/http/answers';
import { paged } from '#shared/http/envelopes';
import { pagingQuery } from '#shared/request-fields';
import { PathEventId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { QuestionResource } from '#shared/portal/contract/portal-checkout';
import { listPortalQuestions } from '#shared/portal/use-cases/catalogue';

export const handler = route(
  'GET /my-account/question/{eventId}',
  { path: PathEventId, query: z.strictObject(pagingQuery) },
  async ({ path, query, caller }) =>
    paged(await listPortalQuestions(caller.id, path.eventId, { limit: query._limit, offset: query._offset })),
);

export const answer = () => PageAnswer(QuestionResource);
