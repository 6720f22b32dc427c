import { putPaymentProcessor } from '#shared/selling/data/payment-processors';
import type { CreatedEvent } from '#shared/events/domain/event';
import { placeOrder } from '../../test/support/factories/orders.ts';

export interface SeededOrders {
  /** Per customer id: their orders' ids and their tickets' ids. */
  [customerId: number]: { orderIds: number[]; ticketIds: number[] };
}

/**
 * The demo's portal data: a payment processor (test mode; its secret key would be in
 * Secrets Manager, never here) and, for each customer, 2–3 orders over the demo events
 * with tickets, a transaction and answers. The events should have wave times (created
 * with them, `waveTimes` of createEvent) for the orders to carry one.
 */
export async function seedDemoOrders(
  events: CreatedEvent[],
  customers: [{ id: number; email: string }, { id: number; email: string }],
): Promise<SeededOrders> {
  const customerIds = customers.map((customer) => customer.id) as [number, number];
  const emailOf = new Map(customers.map((customer) => [customer.id, customer.email]));
  await putPaymentProcessor({
    provider: 'stripe',
    publishableKey: 'pk_test_demo_portal',
    currency: 'GBP',
    mode: 'test',
    merchantName: 'Demo Events Ltd',
  });
  const [first, second = first] = events;
  if (!first || !second) throw new Error('seedDemoOrders needs at least one event.');
  const plans: [number, CreatedEvent, number[]][] = [
    [customerIds[0], first, [first.ticketTypes[0]!.id, first.ticketTypes[0]!.id]],
    [customerIds[0], second, [second.ticketTypes[0]!.id]],
    [customerIds[0], first, [first.ticketTypes.at(-1)!.id]],
    [customerIds[1], first, [first.ticketTypes[1]?.id ?? first.ticketTypes[0]!.id]],
    [customerIds[1], second, [second.ticketTypes[0]!.id, second.ticketTypes.at(-1)!.id]],
  ];
  const seeded: SeededOrders = {
    [customerIds[0]]: { orderIds: [], ticketIds: [] },
    [customerIds[1]]: { orderIds: [], ticketIds: [] },
  };
  for (const [customerId, event, typeIds] of plans) {
    const order = await placeOrder(event, customerId, typeIds, { emailAddress: emailOf.get(customerId)! });
    seeded[customerId]!.orderIds.push(order.id);
    seeded[customerId]!.ticketIds.push(...order.ticketIds);
  }
  return seeded;
}
