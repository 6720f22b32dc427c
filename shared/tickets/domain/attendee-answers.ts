import * as z from '../../schema.ts';
import type { AttendeeQuestion } from '../../events/domain/event.ts';
import type { AttendeeAnswer } from './ticket.ts';

/**
 * An attendee's answers as `GET /ticket/{ticketId}/answers` gives them: each with its
 * question's text, and for a multiple-choice question the chosen option's text, in the
 * order the event asks its questions. A question since removed from the event keeps its
 * answer, with `question: null`.
 */
export const AnswerRecord = z.lazy(() =>
  z.strictObject({
    questionId: z.int(),
    question: z.nullable(z.string()),
    required: z.boolean(),
    answerId: z.nullable(z.int()),
    /** The chosen option's text, or the free-text answer. */
    answer: z.nullable(z.string()),
    answerText: z.nullable(z.string()),
    displayText: z.nullable(z.string()),
    dynamicQuantity: z.nullable(z.int()),
    sku: z.nullable(z.string()),
  }),
);
export type AnswerRecord = z.infer<typeof AnswerRecord>;

export function answerRecords(
  questions: readonly AttendeeQuestion[],
  answers: readonly AttendeeAnswer[],
): AnswerRecord[] {
  const order = new Map(questions.map((question, index) => [question.id, index]));
  const byId = new Map(questions.map((question) => [question.id, question]));
  return [...answers]
    .sort((a, b) => (order.get(a.questionId) ?? Infinity) - (order.get(b.questionId) ?? Infinity))
    .map((answer) => {
      const question = byId.get(answer.questionId);
      const option = question?.options.find((candidate) => candidate.id === answer.answerId);
      return {
        questionId: answer.questionId,
        question: question?.text ?? null,
        required: question?.required ?? false,
        answerId: answer.answerId ?? null,
        answer: option?.text ?? answer.answerText ?? null,
        answerText: answer.answerText ?? null,
        displayText: answer.displayText ?? null,
        dynamicQuantity: answer.dynamicQuantity ?? null,
        sku: answer.sku ?? option?.sku ?? null,
      };
    });
}
