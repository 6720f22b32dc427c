import { now } from '../../clock.ts';
import { commitTicketChanges, type ExtraAction } from '../../lists/writes.ts';
import { readDecideWrite } from '../../data/read-decide-write.ts';
import { readTicketRecord } from '../data/ticket-records.ts';
import { historyEntry, type Actor, type TicketAction } from '../domain/ticket-history.ts';
import { decideStateChange, statesOf } from '../domain/ticket-states.ts';
import type { Via } from '../domain/ticket-transitions.ts';
import type { TicketRecord } from '../domain/ticket.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { assertTicketInScope, scopeOf, type ScopeRule } from '../../identity/use-cases/event-scope.ts';
import { lostRaceAsFalse, stockMoves } from './ticket-stock.ts';

/**
 * The one way a ticket changes: read it, let the use case decide, ask the state machine
 * about every state move, and commit once (ticket, history entry with the actor, counts,
 * bib and extras in one transaction). A concurrent change of the ticket, or of the stock shard its
 * sale takes from, makes it read and decide again (read-decide-write.ts).
 */
export const ticketNotFound = (id: number): NotFound => new NotFound('Ticket', id);

/** Who changes the ticket, what the change is called in its history, and the paths it may take through the state machine. */
export interface ChangeContext {
  actor: Actor;
  action: TicketAction;
  via: readonly Via[];
  /** Which tickets a scoped administrator may change (event-scope.ts): `own` unless said (a scan: `granted`). */
  scopeRule?: ScopeRule;
}

export interface Decision<T> {
  /** The tickets before (null: created) and after; `after.updated` is the change's time. */
  changes: { before: TicketRecord | null; after: TicketRecord }[];
  extra?: ExtraAction[];
  /** When the decision names the change better than the context (an access-package scan). */
  action?: TicketAction;
  result: T;
  /**
   * A refusal that still records something (a refused scan's record in `extra`): thrown once
   * the transaction committed, so what the refusal keeps is written by the one writer.
   */
  refusal?: Error;
}

/** Refuses with 409 and the state machine's reason unless `via` allows every state move from `before` to `after`. */
export function assertStateMoves(before: TicketRecord, after: TicketRecord, via: readonly Via[]): void {
  const decision = decideStateChange(statesOf(before), statesOf(after), via);
  if (!decision.ok) throw new Conflict(decision.message, decision.reason, { field: decision.field });
}

/**
 * Reads ticket `id`, lets `decide` compute the change (or throw to refuse), commits it.
 * A missing ticket, or one outside a scoped actor's events, is a 404; deleted ones reach `decide`, which knows whether that is one.
 * `decide` gets the change's time, which stamps `updated` and the history entry alike.
 * A caller that read many tickets at once (the gate's upload) passes the record as `read`.
 */
export async function changeTicket<T>(
  id: number,
  context: ChangeContext,
  decide: (record: TicketRecord, at: string) => Promise<Decision<T>> | Decision<T>,
  /** The ticket as the caller already read it (strongly consistent): the first attempt decides on it. */
  read?: TicketRecord,
): Promise<T> {
  return readDecideWrite({
    subject: `Ticket ${id}`,
    read: async (attempt) => (attempt === 0 && read ? read : await readTicketRecord(id)),
    decide: async (record) => {
      if (!record) throw ticketNotFound(id);
      // Before anything is decided: outside the actor's events answers what a missing ticket does.
      assertTicketInScope(scopeOf(context.actor), record, context.scopeRule ?? 'own');
      const at = now().toISOString();
      const { changes, extra = [], action = context.action, result, refusal } = await decide(record, at);
      const written = changes.map(({ before, after }) => {
        if (before) assertStateMoves(before, after, context.via);
        return { before, after, history: historyEntry(before, after, { actor: context.actor, action, at }) };
      });
      const write = async () => {
        // A change that moves a type's `sold` moves its stock the other way (ticket-stock.ts).
        const stock = written.length ? await stockMoves(written) : [];
        if (written.length || extra.length) await commitTicketChanges(written, [...stock, ...extra]);
        if (refusal) throw refusal;
      };
      return { write: () => lostRaceAsFalse(write), answer: result };
    },
  });
}

/** Drops undefined values, so a partial input overrides only what it names. */
export const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
