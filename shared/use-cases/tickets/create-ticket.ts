import { now } from '../../clock.ts';
import { allocateIds } from '../../data/counters.ts';
import { findTicketType } from '../../data/events.ts';
import { commitTicketChanges, type ExtraAction } from '../../lists/writes.ts';
import { newTicketRecord } from '../../domain/new-ticket.ts';
import { historyEntry, type Actor } from '../../domain/ticket-history.ts';
import type { PROCESS_STATE, PurchaserContact, Ticket, TicketFields, TicketRecord } from '../../domain/ticket.ts';
import { toTicket } from '../../domain/ticket-view.ts';
import { ValidationError } from '../../errors.ts';
import { definedOnly } from './change-ticket.ts';
import { soldOut, STOCK_TRIES, StockMoved, stockMoves } from './ticket-stock.ts';

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
  /** The stock shard of the reservation it is sold from (checkout's issue step); absent: taken from the type's stock left. */
  fromHold?: { shard: number };
}

/**
 * Issues a ticket of a type (a sale): its type's `sold` rises in the same transaction, 409 `sold_out` when full.
 * It is a stock shard's (ticket-stock.ts): `held` of the hold it comes from, or `left` of a shard holding some,
 * moves to that shard's `sold`, so stock left + held + sold stays the type's total. `with`: the caller's actions of
 * the new ticket's id, in the same transaction (a checkout order's record of it).
 */
export async function createTicket(
  input: NewTicket,
  actor: Actor = { kind: 'system' },
  with_: (ticketId: number) => ExtraAction[] = () => [],
): Promise<Ticket> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await issueTicket(input, actor, with_);
    } catch (error) {
      const retry = error instanceof StockMoved && attempt < STOCK_TRIES;
      if (!retry) throw error instanceof StockMoved ? soldOut(error.typeId) : error;
    }
  }
}

async function issueTicket(
  input: NewTicket,
  actor: Actor,
  with_: (ticketId: number) => ExtraAction[],
): Promise<Ticket> {
  const type = await findTicketType(input.typeId);
  if (!type)
    throw new ValidationError(`Ticket type ${input.typeId} does not exist.`, [
      { path: 'typeId', message: 'Unknown ticket type.' },
    ]);
  const id = await allocateIds(TICKET_SEQUENCE);
  const at = now().toISOString();
  const { purchaser, claim, typeId, fromHold, ...fields } = input;
  const record: TicketRecord = {
    ...newTicketRecord(id, type, at),
    price: type.price,
    ...definedOnly(fields),
    purchaserContact: purchaser ?? null,
    claim: claim ?? null,
  };
  const change = { before: null, after: record, history: historyEntry(null, record, { actor, action: 'create', at }) };
  await commitTicketChanges([change], [...with_(id), ...(await stockMoves([change], { fromHold, known: type }))]);
  return toTicket(record);
}
