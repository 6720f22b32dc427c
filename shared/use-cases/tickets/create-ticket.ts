import { now } from '../../clock.ts';
import { allocateIds } from '../../data/counters.ts';
import { findTicketType } from '../../data/events.ts';
import { commitTicketChanges, type ExtraAction } from '../../lists/writes.ts';
import { readStock, shardsOf, soldFromHoldAction, soldFromStockAction } from '../../data/stock.ts';
import type { TicketType } from '../../domain/event.ts';
import { newTicketRecord } from '../../domain/new-ticket.ts';
import { historyEntry, type Actor } from '../../domain/ticket-history.ts';
import type { PROCESS_STATE, PurchaserContact, Ticket, TicketFields, TicketRecord } from '../../domain/ticket.ts';
import { toTicket } from '../../domain/ticket-view.ts';
import { Conflict, ValidationError } from '../../errors.ts';
import { definedOnly } from './change-ticket.ts';

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

/** Tries of a sale without a hold on a type of several shards: a shard read with stock may be emptied before the write. */
const STOCK_TRIES = 3;

/**
 * Issues a ticket of a type (a sale): `sold` rises in the same transaction, 409 `sold_out` when full.
 * The type's stock moves with it (shared/data/stock.ts): `held` of the hold it comes from, or `left`
 * of a shard holding some, so stock left + held + sold stays the type's total.
 */
export async function createTicket(input: NewTicket, actor: Actor = { kind: 'system' }): Promise<Ticket> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await issueTicket(input, actor);
    } catch (error) {
      const retry = error instanceof StockMoved && attempt < STOCK_TRIES;
      if (!retry) throw error instanceof StockMoved ? soldOut(input.typeId) : error;
    }
  }
}

class StockMoved extends Error {}
const soldOut = (typeId: number) => new Conflict(`Ticket type ${typeId} is sold out.`, 'sold_out');

/** The stock action of the sale: from its hold, or from a shard with stock left (none: sold out). */
async function stockAction(type: TicketType, fromHold: NewTicket['fromHold']): Promise<ExtraAction[]> {
  if (!shardsOf(type)) return [];
  if (fromHold)
    return [
      {
        action: soldFromHoldAction({ typeId: type.id, shard: fromHold.shard }),
        onConditionFailed: () => soldOut(type.id),
      },
    ];
  const shards = shardsOf(type) === 1 ? [{ shard: 0, left: 1 }] : (await readStock(type)).filter((one) => one.left > 0);
  if (!shards.length) throw soldOut(type.id);
  const { shard } = shards[Math.floor(Math.random() * shards.length)]!;
  return [{ action: soldFromStockAction({ typeId: type.id, shard }), onConditionFailed: () => new StockMoved() }];
}

async function issueTicket(input: NewTicket, actor: Actor): Promise<Ticket> {
  const type = await findTicketType(input.typeId);
  if (!type)
    throw new ValidationError(`Ticket type ${input.typeId} does not exist.`, [
      { path: 'typeId', message: 'Unknown ticket type.' },
    ]);
  const id = await allocateIds(TICKET_SEQUENCE);
  const at = now().toISOString();
  const { purchaser, claim, typeId, fromHold, ...fields } = input;
  const stock = await stockAction(type, fromHold);
  const record: TicketRecord = {
    ...newTicketRecord(id, type, at),
    price: type.price,
    ...definedOnly(fields),
    purchaserContact: purchaser ?? null,
    claim: claim ?? null,
  };
  await commitTicketChanges(
    [{ before: null, after: record, history: historyEntry(null, record, { actor, action: 'create', at }) }],
    stock,
  );
  return toTicket(record);
}
