import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, writtenIf } from '../data/client.ts';
import type { Key } from '../data/keys.ts';
import { readDecideWrite } from '../data/read-decide-write.ts';
import { isTotal, positionKey, positionPlaces, type PositionedTicket } from './list-positions.ts';

/**
 * The list positions' blocks and spans as the table stream's consumer moves them (list-catch-up.ts), off the change's
 * transaction and idempotently: each item keeps, per ticket it ever counted, a mark `t<id>` holding the counters the
 * ticket adds there (space-joined; GONE once it left), and a move is one plain UpdateItem per item, conditional on
 * the marks it expects, that sets the marks and moves the counters together. A record read twice, late or replayed
 * finds its marks already set and writes nothing; a mark that holds something else is read and moved from (another
 * run moved the ticket meanwhile). An item without marks (a bulk load counts without
 * them) counts a ticket as its list entries say: the expected place when there is no mark.
 *
 * A mark is the ticket's id and a few counter names, about 20 bytes: a block's shard counts about 16 tickets (200 ids
 * in 16 shards, runs of 8), a span's about 125 (2,000 ids), so a block stays within 1 KB and a span within 3.
 */
export const GONE = '-';
const markOf = (ticketId: number): string => `t${ticketId}`;
const countersOf = (mark: string): string[] => (mark === GONE ? [] : mark.split(' '));

/** One position item's moves: per ticket, the mark its entries say it has (`from`) and the one its record gives (`to`). */
export interface ItemMoves {
  key: Key;
  moves: Map<number, { from: string; to: string }>;
}

/** A ticket's change of positions: what its stored entries say it was (null: listed nowhere) and what its record is. */
export interface PositionChange {
  id: number;
  before: PositionedTicket | null;
  after: PositionedTicket | null;
}

/** The items whose marks the changes move (the all-events totals are the change's transaction's, not here). */
export function positionMoves(changes: readonly PositionChange[]): ItemMoves[] {
  const items = new Map<string, ItemMoves>();
  const mark = (ticketId: number, ticket: PositionedTicket | null, side: 'from' | 'to') => {
    for (const place of ticket ? positionPlaces(ticket) : []) {
      if (isTotal(place)) continue;
      const key = positionKey(place.holder, place.list, place.block, place.shard);
      const id = `${key.PK}/${key.SK}`;
      const item = items.get(id) ?? { key, moves: new Map() };
      items.set(id, item);
      const move = item.moves.get(ticketId) ?? { from: GONE, to: GONE };
      move[side] = place.counters.join(' ');
      item.moves.set(ticketId, move);
    }
  };
  for (const { id, before, after } of changes) {
    mark(id, before, 'from');
    mark(id, after, 'to');
  }
  for (const item of items.values())
    for (const [ticketId, move] of item.moves) if (move.from === move.to) item.moves.delete(ticketId);
  return [...items.values()].filter((item) => item.moves.size > 0);
}

/** Writes the moves, the items at once, each one conditional UpdateItem (read and redone when a mark differs). */
export async function writePositionMoves(items: readonly ItemMoves[]): Promise<void> {
  await Promise.all(items.map(moveItem));
}

/** A ticket's pending move on one item: from the mark read (`marked`), or from what its entries say (first try). */
interface Pending {
  ticketId: number;
  from: string;
  to: string;
  marked: boolean | undefined;
}

const moveItem = ({ key, moves }: ItemMoves): Promise<void> =>
  readDecideWrite({
    subject: `The list position ${key.SK}`,
    // The first try expects what the entries say, unread; a lost one reads the marks.
    read: async (attempt) =>
      attempt === 0
        ? undefined
        : ((await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item ?? {}),
    decide: (stored: Record<string, unknown> | undefined) => {
      const pending: Pending[] = [];
      for (const [ticketId, { from, to }] of moves) {
        const mark = stored?.[markOf(ticketId)];
        if (mark === to) continue;
        pending.push({
          ticketId,
          to,
          from: mark === undefined ? from : String(mark),
          marked: stored === undefined ? undefined : mark !== undefined,
        });
      }
      if (!pending.length) return { answer: undefined };
      return { write: () => writtenIf(markedUpdate(key, pending)), answer: undefined };
    },
  });

/** The UpdateItem that sets the pending marks and moves their counters, only while each mark is as expected. */
function markedUpdate(key: Key, pending: readonly Pending[]): UpdateCommand {
  const deltas = new Map<string, number>();
  for (const { from, to } of pending) {
    for (const counter of countersOf(from)) deltas.set(counter, (deltas.get(counter) ?? 0) - 1);
    for (const counter of countersOf(to)) deltas.set(counter, (deltas.get(counter) ?? 0) + 1);
  }
  const moved = [...deltas].filter(([, delta]) => delta !== 0);
  // No mark: counted as the entries say (an item from before marks); a mark read: exactly it.
  const expected = pending.map(({ marked }, i) =>
    marked === undefined
      ? `(attribute_not_exists(#t${i}) OR #t${i} = :f${i})`
      : marked
        ? `#t${i} = :f${i}`
        : `attribute_not_exists(#t${i})`,
  );
  return new UpdateCommand({
    TableName: tableName(),
    Key: key,
    UpdateExpression: `SET ${[
      '#entity = :entity',
      ...pending.map((_, i) => `#t${i} = :t${i}`),
      ...moved.map((_, i) => `#c${i} = if_not_exists(#c${i}, :zero) + :d${i}`),
    ].join(', ')}`,
    ConditionExpression: expected.join(' AND '),
    ExpressionAttributeNames: {
      '#entity': 'entity',
      ...Object.fromEntries(pending.map(({ ticketId }, i) => [`#t${i}`, markOf(ticketId)])),
      ...Object.fromEntries(moved.map(([name], i) => [`#c${i}`, name])),
    },
    ExpressionAttributeValues: {
      ':entity': 'ListPosition',
      ...(moved.length ? { ':zero': 0 } : {}),
      ...Object.fromEntries(pending.map(({ to }, i) => [`:t${i}`, to])),
      ...Object.fromEntries(pending.flatMap(({ from, marked }, i) => (marked === false ? [] : [[`:f${i}`, from]]))),
      ...Object.fromEntries(moved.map(([, delta], i) => [`:d${i}`, delta])),
    },
  });
}
