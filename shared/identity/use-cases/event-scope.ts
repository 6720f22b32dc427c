import type { AdminPrincipal } from '../../auth/tokens.ts';
import type { Actor } from '../../tickets/domain/ticket-history.ts';
import { NotFound } from '../../errors.ts';

/**
 * Event-scoped staff (README "Event-scoped staff"): an administrator may be limited to a
 * set of events (`eventScope` on the record, the `events` claim in the token); undefined
 * means every event. The one place the rule lives; the ticket, statistics and check-in
 * use cases ask it, the handlers only pass the caller's scope on.
 *
 * Outside the scope is "not found" (404), never 403: a scoped scanner learns nothing about
 * another event's tickets, not even that they exist.
 *
 * Which tickets a scope reaches:
 * - `own`: the ticket's own event is in scope. Every change except a scan needs this.
 * - `granted`: own, or the ticket grants access to an in-scope event (an access package).
 *   Reads and scans use it, so the venue of event B can scan and read the tickets of A
 *   that admit to B, and `GET /tickets?accessEvents=B` lists exactly what GET can read.
 */
export type EventScope = readonly number[] | undefined;

export type ScopeRule = 'own' | 'granted';

/** The caller's scope (undefined: every event). */
export const scopeOf = (caller: Pick<AdminPrincipal, 'eventScope'> | Actor | undefined): EventScope =>
  caller && 'eventScope' in caller ? caller.eventScope : undefined;

/** The actor of a change made by this administrator, carrying its scope to `changeTicket`. */
export const adminActor = (caller: Pick<AdminPrincipal, 'id' | 'eventScope'>): Actor =>
  caller.eventScope
    ? { kind: 'admin', id: caller.id, eventScope: caller.eventScope }
    : { kind: 'admin', id: caller.id };

export const inScope = (scope: EventScope, eventId: number): boolean => !scope || scope.includes(eventId);

/** Whether the scope reaches a ticket by the rule. */
export function ticketInScope(
  scope: EventScope,
  ticket: { eventId: number; accessEvents?: readonly number[] },
  rule: ScopeRule,
): boolean {
  if (inScope(scope, ticket.eventId)) return true;
  return rule === 'granted' && (ticket.accessEvents ?? []).some((eventId) => inScope(scope, eventId));
}

/** 404 for a ticket the scope does not reach (the same answer as a missing ticket). */
export function assertTicketInScope(
  scope: EventScope,
  ticket: { id: number; eventId: number; accessEvents?: readonly number[] },
  rule: ScopeRule,
): void {
  if (!ticketInScope(scope, ticket, rule)) throw new NotFound('Ticket', ticket.id);
}

/** 404 for the first named event outside the scope (statistics, a scan's event). */
export function assertEventsInScope(scope: EventScope, eventIds: readonly number[]): void {
  const outside = eventIds.find((eventId) => !inScope(scope, eventId));
  if (outside !== undefined) throw new NotFound('Event', outside);
}

/** The requested events a list may read: those inside the scope (all of them when unscoped). */
export const scopeEvents = (scope: EventScope, requested: readonly number[]): number[] =>
  requested.filter((eventId) => inScope(scope, eventId));
