import { bibHolder } from '../data/bibs.ts';
import { getEvent } from '../../events/data/events.ts';
import { answerRecords, type AnswerRecord } from '../domain/attendee-answers.ts';
import type { EventScope } from '../../identity/use-cases/event-scope.ts';
import { liveTicketRecord } from './read-tickets.ts';

/**
 * `GET /ticket/{ticketId}/is-bib-available/{bib}`: free when no ticket of the event holds
 * it, or when the asking ticket is the one holding it. Two GetItems: the ticket (for its
 * event), then the bib's item, which every ticket change keeps in step. The bibs read are
 * the ticket's own event's, so its own event must be in the caller's scope: an access
 * package that admits to an in-scope event does not open the other event's bibs.
 */
export async function isBibAvailable(ticketId: number, bib: string, scope?: EventScope): Promise<boolean> {
  const ticket = await liveTicketRecord(ticketId, scope, 'own');
  const holder = await bibHolder(ticket.eventId, bib);
  return holder === undefined || holder === ticketId;
}

/** `GET /ticket/{ticketId}/answers`: the attendee's answers with their questions (two GetItems: ticket, event). */
export async function listTicketAnswers(ticketId: number, scope?: EventScope): Promise<AnswerRecord[]> {
  const ticket = await liveTicketRecord(ticketId, scope);
  const event = await getEvent(ticket.eventId);
  return answerRecords(event.questions, ticket.attendeeQuestions);
}
