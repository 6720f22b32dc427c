import type { CreatedEvent } from '#shared/events/domain/event';
import type { Order } from '#shared/selling/domain/order';
import { createOrder, type NewOrder } from '#shared/selling/use-cases/create-order';
import { sampleAttendee } from './tickets.ts';
import { catchUpTickets } from '#shared/webhooks/use-cases/jobs';

/**
 * Orders for the customer portal: the integration tests and the demo seed (bin/seed/orders.ts) place them through
 * `createOrder` (checkout itself is not in the spec). Each order is for one event.
 */

/**
 * An order of `typeIds` (one attendee each) for a customer, paid by card at the box office (`card_present`: no
 * processor holds the payment, so a cancel refunds it at the desk; a Stripe payment is a real checkout's, paid
 * through the stand-in) and the event's order-level answers.
 */
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
        processor: 'card_present',
        reference: `ch_seed_${customerId}_${event.id}_${typeIds.join('_')}`,
        time: new Date().toISOString(),
      },
    ],
    answers: free ? [{ questionId: free.id, answerText: `Booked by customer ${customerId}` }] : [],
    ...overrides,
  };
}

export async function placeOrder(...args: Parameters<typeof sampleOrder>): Promise<Order> {
  const { order, tickets } = await createOrder(sampleOrder(...args));
  // Its tickets handed to the stream's consumer, as the deployed table's stream would: listed once this answers.
  await catchUpTickets(tickets.map((ticket) => ticket.id));
  return order;
}
