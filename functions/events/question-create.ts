import { SingleAnswer } from '#shared/http/answers';
import { NewQuestionBody, QuestionResource } from '#shared/events/contract/event-parts';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { createQuestionFor } from '#shared/events/use-cases/questions';

/** 201 with the question. */
export const handler = route(
  'POST /events/{id}/questions',
  { path: PathId, body: NewQuestionBody, status: 201 },
  async ({ path, body, caller }) => ({ ...single(await createQuestionFor(caller, path.id, body)), status: 201 }),
);

export const answer = () => SingleAnswer(QuestionResource);
