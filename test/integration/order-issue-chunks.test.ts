import { afterEach, describe, expect, it } from 'vitest';
import { db } from '#shared/data/client';
import { findTicketType } from '#shared/events/data/events';
import { getOrder } from '#shared/selling/data/orders';
import { readStock } from '#shared/selling/data/stock';
import { listOrderTickets } from '../support/stored-records.ts';
import { listsCaughtUp } from '../support/lists-caught-up.ts';
import { clearFaults, failCalls, failures, watchCalls } from '../support/faults.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { allocateIds } from '#shared/data/counters';
import { MAX_GRANTS_PER_TYPE } from '#shared/events/domain/event';
import { SHARD_RUN } from '#shared/tickets/data/stats-shards';
import { checkedOut, payAsBrowser } from '../support/paid-checkout.ts';
import { claimedThenIssued, handToConsumer, issueBehindWebhook } from '../support/paid-order-issuing.ts';
import { useStripeStandIn } from '../support/stripe.ts';

/**
 * An order's tickets are issued together, as many as fit in one transaction (DynamoDB's 100 actions), the rest in
 * further transactions, each recorded on the order (shared/selling/use-cases/issue-order-tickets.ts). Ten tickets, the
 * most one order holds, of an access package granting the most other events (a statistics shard of each per run of
 * ids) take two when their ids span three runs; most orders fit in one, their list and search entries and positions
 * being the stream consumer's, not the transaction's.
 */
const { keys, relay } = useStripeStandIn();

afterEach(clearFaults);

/**
 * The most other events an access package may grant entry to (each a statistics shard per run of ids the order's
 * tickets span), and the container's next ticket ids placed so that ten span three runs of SHARD_RUN: the most actions
 * an order's issue takes, past one transaction's 100.
 */
async function mostGrants(): Promise<number[]> {
  const granted = await Promise.all(Array.from({ length: MAX_GRANTS_PER_TYPE }, () => seedEvent()));
  let taken = await allocateIds('TICKET');
  while (taken % SHARD_RUN !== SHARD_RUN - 2) taken = await allocateIds('TICKET');
  return granted.map((event) => event.id);
}

/** A transaction issuing tickets of an order: its record on the order (`issuedTickets`) is in it. */
const issuing = (input: unknown) => JSON.stringify(input).includes('"#issued":"issuedTickets"');
/** The order's record read with none issued yet (the first chunk's condition). */
const firstChunk = (input: unknown) => /":read":\{"N":"0"\}/.test(JSON.stringify(input));

async function stockOf(typeId: number) {
  const shards = await readStock((await findTicketType(typeId))!);
  return {
    held: shards.reduce((sum, shard) => sum + shard.held, 0),
    sold: shards.reduce((sum, shard) => sum + shard.sold, 0),
  };
}

describe("an order's tickets issued in chunks", () => {
  it('a paid order of ten access passes: two transactions, each within 100 actions, the second activating it', async () => {
    const waiting = await checkedOut(keys, relay, { quantity: 10, price: 10, grants: await mostGrants() });
    const sent: number[] = [];
    const watch = watchCalls(db, ['TransactWriteItemsCommand']);
    await payAsBrowser(keys, waiting.intent);
    await claimedThenIssued(waiting.orderId);
    for (const input of watch.inputs) if (issuing(input)) sent.push((input.TransactItems as unknown[]).length);
    watch.remove();
    expect(sent).toHaveLength(2);
    expect(Math.max(...sent)).toBeLessThanOrEqual(100);
    const order = (await getOrder(Number(waiting.orderId)))!;
    expect(order.status).toBe('active');
    expect(new Set(order.ticketIds).size).toBe(10);
    await listsCaughtUp(order.ticketIds);
    expect((await listOrderTickets(order.id)).map((ticket) => ticket.id).sort()).toEqual([...order.ticketIds].sort());
    expect(await stockOf(waiting.typeId)).toEqual({ held: 0, sold: 10 });
  });

  it("stopped after its first chunk, the consumer's retry issues the rest, each ticket once", async () => {
    const waiting = await checkedOut(keys, relay, { quantity: 10, price: 10, grants: await mostGrants() });
    const orderId = Number(waiting.orderId);
    const fault = failCalls(db, {
      commands: ['TransactWriteItemsCommand'],
      when: (input) => issuing(input) && !firstChunk(input),
      error: failures.dynamoInternal,
    });
    await payAsBrowser(keys, waiting.intent);
    expect((await handToConsumer(orderId)).batchItemFailures).toHaveLength(1);
    expect(fault.attempts).toBeGreaterThan(0);
    const stopped = (await getOrder(orderId))!;
    expect(stopped.status).toBe('pending');
    const first = Object.keys(stopped.issuedTickets!).length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(10);
    expect(await stockOf(waiting.typeId)).toEqual({ held: 10 - first, sold: first });

    await clearFaults();
    const active = await issueBehindWebhook(orderId);
    expect(active.status).toBe('active');
    expect(active.ticketIds.slice(0, first)).toEqual(
      Array.from({ length: first }, (_, position) => stopped.issuedTickets![position]),
    );
    expect(new Set(active.ticketIds).size).toBe(10);
    await listsCaughtUp(active.ticketIds);
    expect(await listOrderTickets(orderId)).toHaveLength(10);
    expect(await stockOf(waiting.typeId)).toEqual({ held: 0, sold: 10 });
  });
});
