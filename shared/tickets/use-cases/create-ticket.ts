import { now } from '../../clock.ts';
import { allocateIds } from '../../data/counters.ts';
import { findTicketType } from '../../events/data/events.ts';
import { readDecideWrite } from '../../data/read-decide-write.ts';
import { commitTicketChanges, type TicketChange } from '../../lists/writes.ts';
import type { TicketType } from '../../events/domain/event.ts';
import { newTicketRecord } from '../domain/new-ticket.ts';
import { historyEntry, type Actor } from '../domain/ticket-history.ts';
import type { PROCESS_STATE, PurchaserContact, Ticket, TicketFields, TicketRecord } from '../domain/ticket.ts';
import { toTicket } from '../domain/ticket-view.ts';
import { ValidationError } from '../../errors.ts';
import { definedOnly } from './change-ticket.ts';
import { lostRaceAsFalse, stockMoves } from './ticket-stock.ts';

/** The id sequence of tickets. */
export const TICKET_SEQUENCE = 'TICKET';

export interface NewTicket extends Partial<TicketFields> {
  typeId: number;
  orderId?: number | null;
  /** The customer holding the ticket (their portal shows it) and the start wave, set by an order. */
  customerId?: number | null;
  waveTimeId?: number | null;
  /** ISO-8601 UTC: the order's purchase time (default: the ticket's creation). */
  purchasedDate?: string;
  /** A sale issues an active ticket, or a pending one (reserved, not yet paid); anything else comes after, through its own route. */
  processState?: typeof PROCESS_STATE.active | typeof PROCESS_STATE.pending;
  purchaser?: PurchaserContact | null;
  claim?: TicketRecord['claim'];
  bookingFee?: number;
  discount?: number;
  feeTax?: number;
}

/**
 * Issues one ticket of a type outside an order's hold (the load and bench tools, tests): `left` of a stock shard
 * holding some moves to that shard's `sold` in the same transaction (ticket-stock.ts), 409 `sold_out` when none is
 * left, so stock left + held + sold stays the type's total. An order's tickets come from its hold:
 * shared/selling/use-cases/issue-order-tickets.ts.
 */
export async function createTicket(input: NewTicket, actor: Actor = { kind: 'system' }): Promise<Ticket> {
  const type = await findTicketType(input.typeId);
  if (!type)
    throw new ValidationError(`Ticket type ${input.typeId} does not exist.`, [
      { path: 'typeId', message: 'Unknown ticket type.' },
    ]);
  const id = await allocateIds(TICKET_SEQUENCE);
  return readDecideWrite({
    subject: `The stock of ticket type ${type.id}`,
    read: async () => {
      const change = newTicketChange(id, type, input, actor, now().toISOString());
      return { change, stock: await stockMoves([change], { known: type }) };
    },
    decide: ({ change, stock }) => ({
      write: () => lostRaceAsFalse(() => commitTicketChanges([change], stock)),
      answer: toTicket(change.after),
    }),
  });
}

/**
 * A new ticket `id` of `type` as a sale issues it (its record and its `create` history entry by `actor` at `at`): the
 * one shape of a sold ticket, for one ticket's transaction here and an order's tickets together (issue-order-tickets.ts).
 */
export function newTicketChange(
  id: number,
  type: TicketType,
  input: NewTicket,
  actor: Actor,
  at: string,
): TicketChange {
  const { purchaser, claim, typeId: _typeId, ...fields } = input;
  const record: TicketRecord = {
    ...newTicketRecord(id, type, at),
    price: type.price,
    ...definedOnly(fields),
    purchaserContact: purchaser ?? null,
    claim: claim ?? null,
  };
  return { before: null, after: record, history: historyEntry(null, record, { actor, action: 'create', at }) };
}
