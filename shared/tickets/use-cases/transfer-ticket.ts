import { allocateIds } from '../../data/counters.ts';
import { findTicketType, getEvent } from '../../events/data/events.ts';
import type { IdempotencyScope } from '../../domain/idempotency.ts';
import { answeringOnce, firstAnswerUpdate, readFirstAnswer } from '../../data/idempotent-requests.ts';
import { answerProblems } from '../../events/domain/event.ts';
import type { Actor } from '../domain/ticket-history.ts';
import type { TransferRequest } from '../domain/attendee-update.ts';
import { replacementTicket, transferRefusal } from '../domain/transfer.ts';
import type { Ticket, TicketRecord } from '../domain/ticket.ts';
import { toTicket } from '../domain/ticket-view.ts';
import { Conflict, ValidationError } from '../../errors.ts';
import { inScope, scopeOf } from '../../identity/use-cases/event-scope.ts';
import { changeTicket, definedOnly } from './change-ticket.ts';
import { TICKET_SEQUENCE } from './create-ticket.ts';

async function targetType(request: TransferRequest, actor: Actor) {
  if (request.typeId === undefined) return undefined;
  const target = await findTicketType(request.typeId);
  // A type of an event outside the actor's scope is answered as one that does not exist.
  if (!target || !inScope(scopeOf(actor), target.eventId))
    throw new ValidationError('Unknown ticket type.', [
      { path: 'body.typeId', message: `Ticket type ${request.typeId} does not exist.` },
    ]);
  if (request.eventId !== undefined && target.eventId !== request.eventId) {
    throw new ValidationError('The ticket type is not of the event.', [
      {
        path: 'body.typeId',
        message: `Ticket type ${target.id} belongs to event ${target.eventId}, not ${request.eventId}.`,
      },
    ]);
  }
  return target;
}

/**
 * `POST /tickets/{id}/transfer`. A new type (or event): one transaction creates the new
 * ticket, marks the original transferred (as the state machine allows: 409 with its
 * reason for a checked-in, cancelled, withdrawn, transferred or deleted ticket), moves
 * `sold` from the old type to the new (409 `sold_out` when full) and the statistics;
 * answers the new ticket. Neither changes: the attendee fields are updated in place.
 */
export async function transferTicket(
  id: number,
  request: TransferRequest,
  actor: Actor,
  /** The request's `Idempotency-Key` scope: the answer is stored in the change's own transaction. */
  answerScope?: IdempotencyScope,
): Promise<Ticket> {
  const target = await targetType(request, actor);
  // Allocated alongside the ticket read (an unused id is harmless); marked handled so a
  // refusal before it is awaited does not leave a rejected promise behind.
  const newId = target ? allocateIds(TICKET_SEQUENCE) : undefined;
  newId?.catch(() => undefined);
  return answeringOnce(answerScope, id, () =>
    changeTicket(id, { actor, action: 'transfer', via: ['transfer'] }, async (record, at) => {
      if (!target && request.eventId !== undefined && request.eventId !== record.eventId) {
        throw new ValidationError('A new event needs a ticket type.', [
          { path: 'body.typeId', message: 'Required when eventId changes the event.' },
        ]);
      }
      const moves = !!target && target.id !== record.typeId;
      const refusal =
        moves || record.deleted || record.transferState === 'transferred' ? transferRefusal(record) : undefined;
      if (refusal) {
        // A retry of a transfer that committed (its function died before storing the answer) answers what it answered.
        const first =
          refusal === 'transferred' && answerScope ? await readFirstAnswer<Ticket>(answerScope, id) : undefined;
        if (first) return { changes: [], result: first };
        throw new Conflict(`Ticket ${id} cannot be transferred: ${refusal.replaceAll('_', ' ')}.`, refusal);
      }
      const attendee = definedOnly(request.attendee ?? {});
      if (attendee.attendeeQuestions) {
        const event = await getEvent(moves ? target.eventId : record.eventId);
        const problems = answerProblems(event.questions, attendee.attendeeQuestions, 'body.attendee.attendeeQuestions');
        if (problems.length) throw new ValidationError('The attendee answers are invalid.', problems);
      }
      if (!moves) {
        // Updated in place: a repeat sets the same fields again, so no answer needs keeping.
        const after = { ...record, ...attendee, updated: at };
        return { changes: [{ before: record, after }], action: 'edit', result: toTicket(after) };
      }
      const created = replacementTicket(record, await newId!, target, attendee, at);
      const original: TicketRecord = {
        ...record,
        transferState: 'transferred',
        transferredTo: created.id,
        updated: at,
      };
      const answer = toTicket(created);
      return {
        changes: [
          { before: record, after: original },
          { before: null, after: created },
        ],
        extra: answerScope ? [firstAnswerUpdate(answerScope, id, answer)] : [],
        result: answer,
      };
    }),
  );
}
