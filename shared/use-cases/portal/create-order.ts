import { now } from '../../clock.ts';
import { allocateIds } from '../../data/counters.ts';
import { findTeam, getEvent, listTicketTypes } from '../../data/events.ts';
import { activateOrder, commitNewOrder } from '../../data/orders.ts';
import { MAX_ORDER_TICKETS } from '../../data/ticket-records.ts';
import { listWaveTimes } from '../../data/wave-times.ts';
import { answerProblems, saleCurrency } from '../../domain/event.ts';
import type { Order, OrderTransaction } from '../../domain/order.ts';
import type { AttendeeAnswer, Ticket } from '../../domain/ticket.ts';
import { ValidationError, type FieldProblem } from '../../errors.ts';
import { createTicket, type NewTicket } from '../tickets/create-ticket.ts';
import { addAmounts } from '../../money.ts';

/** At most this many transactions and order-level answers on one order (keeps the item far below 400 KB). */
export const MAX_ORDER_TRANSACTIONS = 20;
export const MAX_ORDER_ANSWERS = 100;

export interface NewOrder {
  customerId: number;
  eventId: number;
  emailAddress: string;
  purchaser: string;
  affiliate?: string | null;
  waveTimeId?: number | null;
  teamId?: number | null;
  /** One per attendee, in order: each a type of the event and the attendee's fields. */
  tickets: (Omit<NewTicket, 'orderId' | 'teamId'> & { typeId: number })[];
  transactions: OrderTransaction[];
  answers?: AttendeeAnswer[];
}

/**
 * Creates an order (the seed and the tests: checkout is not in the spec). An order is for
 * one event. Steps: check that its types, wave and team belong to the event; one
 * transaction puts the order as `pending` with the customer's link to the event and
 * their counts; each ticket is issued by `createTicket` (its own transaction: a
 * transaction may add only one ticket per type); the order becomes `active` with its
 * ticket ids. A failure while issuing leaves the order `pending`, with the tickets issued
 * so far pointing at it: never tickets without an order.
 */
export async function createOrder(input: NewOrder): Promise<{ order: Order; tickets: Ticket[] }> {
  const [event, types, waves, team] = await Promise.all([
    getEvent(input.eventId),
    listTicketTypes(input.eventId),
    input.waveTimeId ? listWaveTimes(input.eventId) : [],
    input.teamId ? findTeam(input.eventId, input.teamId) : undefined,
  ]);
  const prices = new Map(types.map((type) => [type.id, type.price]));
  const problems: FieldProblem[] = [];
  if (!input.tickets.length || input.tickets.length > MAX_ORDER_TICKETS)
    problems.push({ path: 'tickets', message: `must hold 1 to ${MAX_ORDER_TICKETS} tickets` });
  input.tickets.forEach((ticket, i) => {
    if (!prices.has(ticket.typeId))
      problems.push({
        path: `tickets.${i}.typeId`,
        message: `Ticket type ${ticket.typeId} is not a type of event ${event.id}.`,
      });
  });
  if (input.waveTimeId && !waves.some((wave) => wave.id === input.waveTimeId))
    problems.push({ path: 'waveTimeId', message: `Wave time ${input.waveTimeId} is not a wave of event ${event.id}.` });
  if (input.teamId && !team)
    problems.push({ path: 'teamId', message: `Team ${input.teamId} is not a team of event ${event.id}.` });
  if (input.transactions.length > MAX_ORDER_TRANSACTIONS)
    problems.push({ path: 'transactions', message: `must hold at most ${MAX_ORDER_TRANSACTIONS}` });
  if ((input.answers?.length ?? 0) > MAX_ORDER_ANSWERS)
    problems.push({ path: 'answers', message: `must hold at most ${MAX_ORDER_ANSWERS}` });
  problems.push(...answerProblems(event.questions, input.answers ?? [], 'answers'));
  if (problems.length) throw new ValidationError('The order does not fit its event.', problems);

  const id = await allocateIds('ORDER');
  const at = now().toISOString();
  const lines = input.tickets.map((ticket) => ({ ...ticket, price: ticket.price ?? prices.get(ticket.typeId)! }));
  const pending: Order = {
    id,
    customerId: input.customerId,
    eventId: event.id,
    created: at,
    purchasedDate: at,
    status: 'pending',
    emailAddress: input.emailAddress,
    purchaser: input.purchaser,
    affiliate: input.affiliate ?? null,
    grandTotal: addAmounts(
      lines.map((line) => line.price),
      saleCurrency(event),
    ),
    ticketIds: [],
    typeIds: [...new Set(lines.map((line) => line.typeId))],
    waveTimeId: input.waveTimeId ?? null,
    teamId: input.teamId ?? null,
    transactions: input.transactions,
    answers: input.answers ?? [],
  };
  await commitNewOrder(pending, event);

  const tickets: Ticket[] = [];
  for (const line of lines) {
    const ticket: NewTicket = {
      ...line,
      orderId: id,
      customerId: input.customerId,
      waveTimeId: pending.waveTimeId,
      teamId: pending.teamId,
      purchasedDate: pending.purchasedDate,
    };
    tickets.push(await createTicket(ticket, { kind: 'customer', id: input.customerId }));
  }
  return {
    order: await activateOrder(
      pending,
      tickets.map((ticket) => ticket.id),
    ),
    tickets,
  };
}
