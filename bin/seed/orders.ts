import { putPaymentProcessor } from '#shared/data/payment-processors';
import type { CreatedEvent } from '#shared/domain/event';
import type { Order } from '#shared/domain/order';
import { createOrder, type NewOrder } from '#shared/use-cases/portal/create-order';
import { sampleAttendee } from './tickets.ts';

/**
 * Orders for the customer portal: the demo seed and the integration tests place them
 * through `createOrder` (checkout itself is not in the spec). Each order is for one event.
 */

/** An order of `typeIds` (one attendee each) for a customer, with a card payment and the event's order-level answers. */
export function sampleOrder(
  event: CreatedEvent,
  customerId: number,
  typeIds: number[],
  overrides: Partial<NewOrder> = {},
): NewOrder {
  const tickets = typeIds.map((typeId, n) => {
    const { teamId: _team, ...attendee } = sampleAttendee(event, customerId + n);
    return { ...attendee, typeId };
  });
  const prices = new Map(event.ticketTypes.map((type) => [type.id, type.price]));
  const amount = typeIds.reduce((sum, typeId) => sum + (prices.get(typeId) ?? 0), 0);
  const free = event.questions.find((question) => !question.options.length);
  return {
    customerId,
    eventId: event.id,
    emailAddress: `customer-${customerId}@example.test`,
    purchaser: `${tickets[0]?.partyMember ?? 'Guest'} ${tickets[0]?.partyMemberLastName ?? ''}`.trim(),
    affiliate: null,
    waveTimeId: event.waveTimes[0]?.id ?? null,
    tickets,
    transactions: [
      {
        amount,
        processor: 'stripe',
        reference: `ch_seed_${customerId}_${event.id}_${typeIds.join('_')}`,
        time: new Date().toISOString(),
      },
    ],
    answers: free ? [{ questionId: free.id, answerText: `Booked by customer ${customerId}` }] : [],
    ...overrides,
  };
}

export const placeOrder = async (...args: Parameters<typeof sampleOrder>): Promise<Order> =>
  (await createOrder(sampleOrder(...args))).order;

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
