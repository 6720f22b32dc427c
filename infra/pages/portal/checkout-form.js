// The checkout's form: one fieldset per held ticket with the attendee's fields and the event's questions
// (GET /my-account/question/{eventId}), the shipping address and its country where the chosen method posts the tickets, and a 400's
// field problems shown beside the fields they name. Which questions are required is marked here and enforced by the
// server (its 400 names each attendee who left one unanswered), so the page holds no rule of its own.
import { $, element } from './api.js';

/** One attendee's fields: the spec's names, email, birth date and company, then each question of the event. */
export function attendeeFields(n, typeName, questions) {
  const field = (name, label, type = 'text', required = false) =>
    element(
      'label',
      { text: `${label} ` },
      element('input', { id: `attendee-${n}-${name}`, name, type, required, autocomplete: 'off' }),
      problemSlot(`body.attendees.${n}.${name}`),
    );
  return element(
    'fieldset',
    { 'data-attendee': String(n) },
    element('legend', { text: `Ticket ${n + 1}: ${typeName}` }),
    field('firstName', 'First name', 'text', true),
    field('lastName', 'Last name', 'text', true),
    field('email', 'Email', 'email', true),
    field('birthDate', 'Birth date', 'date'),
    field('company', 'Company'),
    ...questions.map((question) => questionField(n, question)),
  );
}

/** A question: free text, or a choice among its options; `required` marked (the server refuses it unanswered). */
function questionField(n, question) {
  const id = `attendee-${n}-question-${question.id}`;
  const input =
    question.type === 'choice'
      ? element(
          'select',
          { id },
          element('option', { value: '', text: 'Choose…' }),
          ...question.options.map((option) => element('option', { value: String(option.id), text: option.text })),
        )
      : element('input', { id, type: 'text', autocomplete: 'off' });
  input.setAttribute('aria-required', String(question.required));
  return element(
    'label',
    { className: 'question', 'data-question-id': String(question.id), 'data-required': String(question.required) },
    `${question.text}${question.required ? ' (required)' : ''} `,
    input,
    problemSlot(),
  );
}

/** Where a field's problem is shown (`path`: the body field it answers for, when known before sending). */
const problemSlot = (path) =>
  element('span', { className: 'field-problem', hidden: true, ...(path ? { 'data-path': path } : {}) });

/**
 * The attendees as the checkout takes them, each question answered by its type (unanswered ones left out), and
 * where each answer's problems are shown: an answer's path (`body.attendees.<n>.answers.<k>`) names the answer sent,
 * and the attendee's `answers` itself the required questions left blank, in the event's order (as the server lists them).
 */
export function readAttendees(questions) {
  const slots = new Map();
  const attendees = [...$('attendees').querySelectorAll('fieldset')].map((fieldset, n) => {
    const attendee = {};
    for (const input of fieldset.querySelectorAll(':scope > label:not(.question) > input'))
      if (input.value) attendee[input.name] = input.value.trim();
    const answers = [];
    const blank = [];
    for (const question of questions) {
      const label = fieldset.querySelector(`label.question[data-question-id="${question.id}"]`);
      const value = label.querySelector('input, select').value.trim();
      const slot = label.querySelector('.field-problem');
      if (!value) {
        if (question.required) blank.push(slot);
        continue;
      }
      slots.set(`body.attendees.${n}.answers.${answers.length}`, [slot]);
      answers.push(
        question.type === 'choice'
          ? { questionId: question.id, answerId: Number(value) }
          : { questionId: question.id, answerText: value },
      );
    }
    if (blank.length) slots.set(`body.attendees.${n}.answers`, blank);
    if (answers.length) attendee.answers = answers;
    return attendee;
  });
  for (const slot of document.querySelectorAll('#attendees-form .field-problem[data-path]'))
    slots.set(slot.dataset.path, [slot]);
  return { attendees, slots };
}

/** Clears every problem shown. */
export function clearProblems() {
  for (const slot of document.querySelectorAll('#attendees-form .field-problem')) {
    slot.textContent = '';
    slot.hidden = true;
  }
}

/**
 * Shows each of a 400's `errors` beside its field: the field whose path is the problem's or the nearest above it
 * (`body.attendees.0.answers.1.answerId` → the second answer's question); the problems at one path go to its slots
 * in order. Answers how many were placed; the rest stay in the page's message.
 */
export function showProblems(errors, slots) {
  const used = new Map();
  let placed = 0;
  for (const { path, message } of errors) {
    let at = path;
    while (at && !slots.has(at)) at = at.includes('.') ? at.slice(0, at.lastIndexOf('.')) : '';
    if (!at) continue;
    const list = slots.get(at);
    const slot = list[Math.min(used.get(at) ?? 0, list.length - 1)];
    used.set(at, (used.get(at) ?? 0) + 1);
    slot.textContent = slot.hidden ? message : `${slot.textContent} ${message}`;
    slot.hidden = false;
    slot.dataset.problemPath = path;
    placed += 1;
  }
  return placed;
}
