import { SingleAnswer } from '#shared/http/answers';
import { PathEventQuestion, QuestionPatchBody, QuestionResource } from '#shared/events/contract/event-parts';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { updateQuestionFor } from '#shared/events/use-cases/questions';

/** The question as changed; readers read it by id, so the change shows at once. */
export const handler = route(
  'PATCH /events/{id}/questions/{questionId}',
  { path: PathEventQuestion, body: QuestionPatchBody },
  async ({ path, body, caller }) => single(await updateQuestionFor(caller, path.id, path.questionId, body)),
);

export const answer = () => SingleAnswer(QuestionResource);
