import { PathEventQuestion } from '#shared/events/contract/event-parts';
import { route } from '#shared/http/route';
import { deleteQuestionFor } from '#shared/events/use-cases/questions';

/** 204; a question that live tickets use stays (409 `in_use`). */
export const handler = route(
  'DELETE /events/{id}/questions/{questionId}',
  { path: PathEventQuestion, status: 204 },
  async ({ path, caller }) => {
    await deleteQuestionFor(caller, path.id, path.questionId);
    return { status: 204 };
  },
);
