import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Order, OrderHistoryEntry, OrderStatus, OrderTransaction } from '../domain/order.ts';
import type { PaymentProblem } from '../domain/order-payment.ts';
import { tableName, writtenIf } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';
import { moveOrderStatus, OrderStatusMoved, sameLength } from './order-status.ts';
import { getOrder } from './orders.ts';
import { readDecideWrite } from '../../data/read-decide-write.ts';

/**
 * An existing order's lists (`transactions`, `history`) are only ever appended to (`list_append`), never written
 * whole from a read: a writer that records on the order between another's read and its write (a refund Stripe
 * reports, a cancellation's start, a lapse) keeps its entry. A transaction goes in once by its `reference`: its
 * append is conditional on the list as long as when it was checked against. Here the checkout's status moves and
 * the record of transactions; a lapse and the cancel append through order-status.ts (`APPEND`), a cancellation's
 * start in order-staff.ts.
 */

/**
 * Moves an order from the status it was read in to `to` (a checkout's: awaiting_payment → pending while
 * its tickets are issued, or → refunded), setting `set` with it, through the one status move
 * (order-status.ts: its status-keyed index places and the staff's counts with it); conditional on the
 * status it was read in, so of two deliveries of one payment only one moves it. Its lists are only appended to:
 * `history` gets `history`'s entries, `transactions` those of `transactions` whose `reference` it does not hold yet,
 * as addTransactions adds them (conditional on the list as long as read; a refund recorded meanwhile is kept, and
 * recorded once when it is one of those: the order is read again and the move tried again while still in the
 * status read). The order as it is after; undefined when it had moved meanwhile.
 */
export async function moveOrder(
  order: Order,
  to: OrderStatus,
  {
    set = {},
    transactions = [],
    history = [],
  }: {
    set?: Partial<Pick<Order, 'checkout' | 'issuedTickets'>>;
    transactions?: readonly OrderTransaction[];
    history?: readonly OrderHistoryEntry[];
  } = {},
): Promise<Order | undefined> {
  return readDecideWrite<Order | undefined, Order | undefined>({
    subject: `Order ${order.id}`,
    read: async (attempt) => (attempt === 0 ? order : await getOrder(order.id)),
    decide: (read) => {
      // Moved meanwhile: not this call's to move. Still in the status read, the move lost to a transaction recorded
      // meanwhile (its list's length): then tried again on it.
      if (read?.status !== order.status) return { answer: undefined };
      const held = new Set(read.transactions.map((transaction) => transaction.reference));
      const fresh = transactions.filter((transaction) => !held.has(transaction.reference));
      const unchanged = fresh.length ? sameLength('transactions', read.transactions.length) : undefined;
      const moved = () =>
        moveOrderStatus(read, { status: to }, { SET: set, APPEND: { transactions: fresh, history } }, unchanged).then(
          () => true,
          (error: unknown) => {
            if (error instanceof OrderStatusMoved) return false;
            throw error;
          },
        );
      return {
        write: moved,
        answer: {
          ...read,
          ...set,
          status: to,
          transactions: [...read.transactions, ...fresh],
          ...(history.length ? { history: [...(read.history ?? []), ...history] } : {}),
        },
      };
    },
  });
}

/**
 * Adds to the order's `transactions` those of `added` whose `reference` it does not hold yet (a refund recorded
 * by the cancellation and again by Stripe's `charge.refunded`: once), conditional on the list being as long as
 * when it was read, so two writers cannot both append one; a lost race reads again. The order as it is after
 * (undefined: no such order).
 */
export async function addTransactions(id: number, added: readonly OrderTransaction[]): Promise<Order | undefined> {
  return (await appendTransactions(id, added))?.order;
}

/** addTransactions, also answering which of `added` this call appended (none: all were held already). */
export async function appendTransactions(
  id: number,
  added: readonly OrderTransaction[],
): Promise<{ order: Order; appended: OrderTransaction[] } | undefined> {
  return readDecideWrite({
    subject: `Order ${id}`,
    read: () => getOrder(id),
    decide: (order) => {
      if (!order) return { answer: undefined };
      const held = new Set(order.transactions.map((transaction) => transaction.reference));
      const fresh = added.filter((transaction) => !held.has(transaction.reference));
      if (!fresh.length) return { answer: { order, appended: [] } };
      return {
        write: () => writtenIf(appendCommand(id, 'transactions', order.transactions.length, fresh)),
        answer: { order: { ...order, transactions: [...order.transactions, ...fresh] }, appended: fresh },
      };
    },
  });
}

/**
 * Appends a payment that named the order but did not pay it (`paymentProblems`), once per PaymentIntent: conditional
 * on the list being as long as when it was checked, so two deliveries of one event record it once; a lost race reads
 * again. False when there is no such order or the intent is recorded already.
 */
export async function addPaymentProblem(id: number, problem: PaymentProblem): Promise<boolean> {
  return readDecideWrite({
    subject: `Order ${id}`,
    read: () => getOrder(id),
    decide: (order) => {
      if (!order) return { answer: false };
      const held = order.paymentProblems ?? [];
      if (held.some((recorded) => recorded.intentId === problem.intentId)) return { answer: false };
      return {
        write: () => writtenIf(appendCommand(id, 'paymentProblems', held.length, [problem])),
        answer: true,
      };
    },
  });
}

/**
 * One append to an order's list, conditional on the list holding `held` entries as it was read (or none yet), so of
 * two writers that read the same list only one appends; the other reads again.
 */
function appendCommand(id: number, list: 'transactions' | 'paymentProblems', held: number, fresh: readonly unknown[]) {
  return new UpdateCommand({
    TableName: tableName(),
    Key: keys.order(id),
    UpdateExpression: 'SET #list = list_append(if_not_exists(#list, :none), :fresh)',
    ConditionExpression: held
      ? 'size(#list) = :held'
      : 'attribute_exists(PK) AND (attribute_not_exists(#list) OR size(#list) = :held)',
    ExpressionAttributeNames: { '#list': list },
    ExpressionAttributeValues: { ':none': [], ':fresh': fresh, ':held': held },
  });
}
