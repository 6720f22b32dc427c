import { findTeam, getEvent } from '../../events/data/events.ts';
import { answerProblems } from '../../events/domain/event.ts';
import type { Actor } from '../domain/ticket-history.ts';
import { withStates, statesOf } from '../domain/ticket-states.ts';
import type { TicketStates, Via } from '../domain/ticket-transitions.ts';
import {
  PROCESS_STATE,
  type ProcessState,
  type Ticket,
  type TicketFields,
  type TicketRecord,
  type WithdrawnState,
} from '../domain/ticket.ts';
import { toTicket } from '../domain/ticket-view.ts';
import { AppError, ValidationError, type FieldProblem } from '../../errors.ts';
import { changeTicket, definedOnly, ticketNotFound } from './change-ticket.ts';

export type TicketPatch = Partial<TicketFields> & {
  eventId?: number;
  typeId?: number;
  processState?: ProcessState;
  withdrawnState?: WithdrawnState;
};

const liveOnly = (record: TicketRecord): TicketRecord => {
  if (record.deleted) throw ticketNotFound(record.id);
  return record;
};

/** What is wrong with a patch for this ticket's event: answers to its questions, a team of it, event and type unchanged. */
async function patchProblems(record: TicketRecord, patch: TicketPatch): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  if (patch.eventId !== undefined && patch.eventId !== record.eventId) {
    problems.push({
      path: 'body.data.eventId',
      message: 'The event changes only through POST /tickets/{id}/transfer.',
    });
  }
  if (patch.typeId !== undefined && patch.typeId !== record.typeId) {
    problems.push({
      path: 'body.data.typeId',
      message: 'The ticket type changes only through POST /tickets/{id}/transfer.',
    });
  }
  const [event, team] = await Promise.all([
    patch.attendeeQuestions ? getEvent(record.eventId) : undefined,
    patch.teamId ? findTeam(record.eventId, patch.teamId) : undefined,
  ]);
  if (event && patch.attendeeQuestions)
    problems.push(...answerProblems(event.questions, patch.attendeeQuestions, 'body.data.attendeeQuestions'));
  if (patch.teamId && !team)
    problems.push({
      path: 'body.data.teamId',
      message: `Team ${patch.teamId} is not a team of event ${record.eventId}.`,
    });
  return problems;
}

/**
 * `PATCH /tickets/{id}`: the writable fields; answers and team checked against the
 * event; the bib unique in the event (409 `bib_taken`); `processState` and
 * `withdrawnState` only as an edit may move them (cancel, issue a pending ticket,
 * withdraw: 409 with the state machine's reason otherwise).
 */
export async function updateTicket(id: number, patch: TicketPatch, actor: Actor): Promise<Ticket> {
  return changeTicket(id, { actor, action: 'edit', via: ['edit'] }, async (found, at) => {
    const record = liveOnly(found);
    const problems = await patchProblems(record, patch);
    if (problems.length) throw new ValidationError('The ticket update is invalid.', problems);
    const { eventId, typeId, processState, withdrawnState, ...fields } = patch;
    const states = { ...statesOf(record), ...definedOnly({ processState, withdrawnState }) };
    const after: TicketRecord = { ...withStates(record, states), ...definedOnly(fields), updated: at };
    if (patch.teamId === 0) after.teamId = null;
    return { changes: [{ before: record, after }], result: toTicket(after) };
  });
}

/**
 * The explicit state change (the older routes' states body): any state field, as the
 * state machine allows through the states path, which restores cancelled, withdrawn and
 * deleted tickets. Undoing a check-in takes the `checkin:undo` permission on top
 * (`mayUndoCheckIn`). Answers the record after the change.
 */
export async function changeTicketStates(
  id: number,
  change: Partial<TicketStates>,
  actor: Actor,
  { mayUndoCheckIn = false } = {},
): Promise<TicketRecord> {
  const via: Via[] = mayUndoCheckIn ? ['states', 'undo_check_in'] : ['states'];
  return changeTicket(id, { actor, action: 'states', via }, (record, at) => {
    const after: TicketRecord = { ...withStates(record, { ...statesOf(record), ...definedOnly(change) }), updated: at };
    const undoesCheckIn =
      record.processState === PROCESS_STATE.checkedIn && after.processState !== PROCESS_STATE.checkedIn;
    return { changes: [{ before: record, after }], action: undoesCheckIn ? 'undo_check_in' : 'states', result: after };
  });
}

/** Soft delete: the record stays, marked deleted; it leaves lists (sparse indexes) and statistics. 404 when missing or already deleted. */
export async function deleteTicket(id: number, actor: Actor): Promise<void> {
  await changeTicket(id, { actor, action: 'delete', via: ['delete'] }, (found, at) => {
    const record = liveOnly(found);
    return { changes: [{ before: record, after: { ...record, deleted: 1, updated: at } }], result: undefined };
  });
}

/** Soft-deletes each id on its own (in request order, each id once): per id, undefined (deleted) or why not. */
export async function deleteTickets(ids: number[], actor: Actor): Promise<Map<number, string | undefined>> {
  const outcome = new Map<number, string | undefined>();
  for (const id of new Set(ids)) {
    try {
      await deleteTicket(id, actor);
      outcome.set(id, undefined);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcome.set(id, error.message);
    }
  }
  return outcome;
}
