import type { NewQuestionBody, QuestionPatchBody } from '../domain/event-bodies.ts';
import { allocateIds } from '../../data/counters.ts';
import {
  type AnswerOption,
  type AttendeeQuestion,
  type Event,
  MAX_QUESTIONS,
  MAX_QUESTIONS_BYTES,
  questionsBytes,
} from '../domain/event.ts';

import { Conflict, NotFound, ValidationError } from '../../errors.ts';
import type { Caller } from './event-reads.ts';
import { commitPart, eventAtVersion } from './parts.ts';
import { assertUnused } from '../../lists/tickets.ts';

/**
 * The attendee-question routes, one question at a time. Questions live on the event item
 * (event.ts `questions`), so each change is that item's conditional put with its history;
 * tickets' answers name questions and options by id, and every reader takes the text from
 * the event, so a rename shows at once. Which tickets answered a question is not counted,
 * so a question (or an option) is removed only while the event has no live ticket (409
 * `in_use` with the event's ticket count).
 */

function questionOf(event: Event, questionId: number) {
  const question = (event.questions ?? []).find((candidate) => candidate.id === questionId);
  if (!question) throw new NotFound('Question', questionId);
  return question;
}

/** The new options list: those named by id kept (renamed), the others new; ids named must be the question's. */
async function optionsOf(
  given: NonNullable<QuestionPatchBody['options']>,
  held: readonly AnswerOption[],
): Promise<AnswerOption[]> {
  const ids = new Set(held.map((option) => option.id));
  for (const [i, option] of given.entries())
    if (option.id !== undefined && !ids.has(option.id))
      throw new ValidationError(`Option ${option.id} is not an option of this question.`, [
        { path: `body.options.${i}.id`, message: `option ${option.id} is not an option of this question` },
      ]);
  const fresh = given.filter((option) => option.id === undefined).length;
  let next = fresh ? await allocateIds('ANSWER_OPTION', fresh) : 0;
  return given.map(({ id, text, sku }) => ({ id: id ?? next++, text, ...(sku === undefined ? {} : { sku }) }));
}

export async function createQuestionFor(caller: Caller, eventId: number, body: NewQuestionBody) {
  const event = await eventAtVersion(caller, eventId, body.version);
  const questions = event.questions ?? [];
  if (questions.length >= MAX_QUESTIONS)
    throw new Conflict(`An event asks at most ${MAX_QUESTIONS} questions.`, 'too_many_questions');
  const question: AttendeeQuestion = {
    id: await allocateIds('QUESTION'),
    text: body.text,
    required: body.required ?? false,
    options: await optionsOf(body.options ?? [], []),
  };
  await commitPart(
    caller,
    event,
    'question_created',
    { [`questions.${question.id}`]: { from: null, to: question } },
    [],
    { questions: fitting([...questions, question]) },
  );
  return question;
}

export async function updateQuestionFor(caller: Caller, eventId: number, questionId: number, body: QuestionPatchBody) {
  const event = await eventAtVersion(caller, eventId, body.version);
  const question = questionOf(event, questionId);
  const next: AttendeeQuestion = {
    ...question,
    ...(body.text === undefined ? {} : { text: body.text }),
    ...(body.required === undefined ? {} : { required: body.required }),
    ...(body.options === undefined ? {} : { options: await optionsOf(body.options, question.options) }),
  };
  if (JSON.stringify(next) === JSON.stringify(question)) return question;
  const kept = new Set(next.options.map((option) => option.id));
  const removed = question.options.some((option) => !kept.has(option.id));
  const checks = removed ? await assertUnused(eventId, { kind: 'event' }, `An option of question ${questionId}`) : [];
  await commitPart(
    caller,
    event,
    'question_updated',
    { [`questions.${questionId}`]: { from: question, to: next } },
    checks,
    {
      questions: fitting((event.questions ?? []).map((candidate) => (candidate.id === questionId ? next : candidate))),
    },
  );
  return next;
}

export async function deleteQuestionFor(caller: Caller, eventId: number, questionId: number): Promise<void> {
  const event = await eventAtVersion(caller, eventId, undefined);
  const question = questionOf(event, questionId);
  const checks = await assertUnused(eventId, { kind: 'event' }, `Question ${questionId}`);
  await commitPart(
    caller,
    event,
    'question_deleted',
    { [`questions.${questionId}`]: { from: question, to: null } },
    checks,
    {
      questions: (event.questions ?? []).filter((candidate) => candidate.id !== questionId),
    },
  );
}

/** The event's questions as they would be stored, refused (409) when they would not fit on the event item. */
function fitting(questions: AttendeeQuestion[]): AttendeeQuestion[] {
  if (questionsBytes(questions) > MAX_QUESTIONS_BYTES)
    throw new Conflict(
      `An event's questions take at most ${MAX_QUESTIONS_BYTES} bytes; these would take ${questionsBytes(questions)}.`,
      'questions_too_large',
    );
  return questions;
}
