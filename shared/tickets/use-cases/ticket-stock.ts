import {
  readStock,
  returnToStockAction,
  salesMoveAction,
  soldFromHoldAction,
  soldFromStockAction,
  stockShardsOf,
} from '../../selling/data/stock.ts';
import { addSums, isNoSale, NO_SALES, type SaleSums, ticketSums } from '../../selling/domain/sale-prices.ts';
import type { TicketType } from '../../events/domain/event.ts';
import { isEligible, type TicketRecord } from '../domain/ticket.ts';
import { Conflict } from '../../errors.ts';
import { StaleTicket, type ExtraAction } from '../../lists/writes.ts';

/**
 * The stock moves of a ticket change (shared/selling/data/stock.ts): a type's `sold` is kept on its stock
 * shards, so every change that makes a ticket hold a place or stop holding one moves a shard's
 * `sold` and its `left` or `held` in the same update, and left + held + sold over the shards stays
 * the type's total. A ticket that stops holding a place (deleted, cancelled, withdrawn,
 * transferred away) gives it back to the stock left; one that starts holding one
 * (a sale, a transfer into the type, a restore) takes it from the reservation it was held by
 * (`fromHold`) or from a shard with stock left, conditionally: none is 409 `sold_out`. Every
 * type has its stock from its creation's transaction (shared/events/data/event-creation.ts). The type's sales figures
 * move with its `sold` (shared/selling/domain/sale-figures.ts): each ticket that starts holding a place adds its
 * figures, each that stops takes its figures away, and a sold ticket whose figures change (an edit of its price, a
 * transfer that changes them) moves the difference.
 */
export async function stockMoves(
  changes: readonly { before: TicketRecord | null; after: TicketRecord }[],
  options: { fromHold?: { shard: number }; known?: TicketType } = {},
): Promise<ExtraAction[]> {
  const moves = new Map<number, TypeMove>();
  const entry = (ticket: TicketRecord) => {
    const found = moves.get(ticket.typeId) ?? {
      delta: 0,
      sums: NO_SALES,
      ticketId: ticket.id,
      eventId: ticket.eventId,
    };
    moves.set(ticket.typeId, found);
    return found;
  };
  for (const { before, after } of changes) {
    // Each side on its own type: what it held leaves, what it holds joins (the same type: only a difference moves).
    if (before && isEligible(before)) leave(entry(before), before);
    if (isEligible(after)) join(entry(after), after);
  }
  const typeOf = async (typeId: number, eventId: number) =>
    options.known?.id === typeId ? options.known : stockShardsOf(eventId, typeId);
  const actions = await Promise.all(
    [...moves]
      .filter(([, move]) => move.delta !== 0 || !isNoSale(move.sums))
      .map(async ([typeId, move]) => stockMove(await typeOf(typeId, move.eventId), move, options.fromHold)),
  );
  return actions.flat();
}

interface TypeMove {
  delta: number;
  sums: SaleSums;
  ticketId: number;
  eventId: number;
}

function leave(move: TypeMove, ticket: TicketRecord) {
  move.delta -= 1;
  move.sums = addSums(move.sums, ticketSums(ticket), -1);
}

function join(move: TypeMove, ticket: TicketRecord) {
  move.delta += 1;
  move.sums = addSums(move.sums, ticketSums(ticket));
}

/** A shard read with stock was emptied before the write: the caller reads again. */
export class StockMoved extends Error {
  constructor(readonly typeId: number) {
    super(`The stock of ticket type ${typeId} moved meanwhile.`);
  }
}
/**
 * A ticket's write as read-decide-write.ts asks it: false when it lost a race (the ticket changed since it was read,
 * or a shard read with stock was emptied), for a fresh read and decision; true once written.
 */
export async function lostRaceAsFalse(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (error instanceof StaleTicket || error instanceof StockMoved) return false;
    throw error;
  }
}

export const soldOut = (typeId: number) => new Conflict(`Ticket type ${typeId} is sold out.`, 'sold_out');

async function stockMove(
  type: Pick<TicketType, 'id' | 'stockShards'> | undefined,
  { delta, sums, ticketId }: TypeMove,
  fromHold: { shard: number } | undefined,
): Promise<ExtraAction[]> {
  if (!type) return [];
  const typeId = type.id;
  const ownShard = ticketId % type.stockShards;
  // Filtered out unless its figures moved (stockMoves): a sold ticket's price edited.
  if (delta === 0) return [{ action: salesMoveAction(typeId, ownShard, sums) }];
  if (delta < 0) return [{ action: returnToStockAction({ typeId, shard: ownShard, quantity: -delta, sums }) }];
  if (fromHold)
    return [
      { action: soldFromHoldAction({ typeId, shard: fromHold.shard, sums }), onConditionFailed: () => soldOut(typeId) },
    ];
  // One shard is tried unread: its condition failing is the type sold out, as no other shard could have stock.
  if (type.stockShards === 1)
    return [{ action: soldFromStockAction({ typeId, shard: 0, sums }), onConditionFailed: () => soldOut(typeId) }];
  const shards = (await readStock(type)).filter((one) => one.left > 0);
  if (!shards.length) throw soldOut(typeId);
  const { shard } = shards[Math.floor(Math.random() * shards.length)]!;
  return [{ action: soldFromStockAction({ typeId, shard, sums }), onConditionFailed: () => new StockMoved(typeId) }];
}
