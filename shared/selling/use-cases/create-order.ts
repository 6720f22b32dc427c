import { now } from '../../clock.ts';
import { findTeam, getEvent, listTicketTypes } from '../../events/data/events.ts';
import { MAX_ORDER_TICKETS } from '../../tickets/data/ticket-records.ts';
import { listWaveTimes } from '../../events/data/wave-times.ts';
import { answerProblems, saleCurrency } from '../../events/domain/event.ts';
import { toTicket } from '../../tickets/domain/ticket-view.ts';
import type { Order, OrderTransaction } from '../domain/order.ts';
import type { AttendeeAnswer, Ticket } from '../../tickets/domain/ticket.ts';
import { ValidationError, type FieldProblem } from '../../errors.ts';
import type { NewTicket } from '../../tickets/use-cases/create-ticket.ts';
import { holdOrder } from './hold-order.ts';
import { issueOrderTickets } from './issue-order-tickets.ts';
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
 * transaction puts the order as `pending` with its places held (`left` → `held`: 409
 * `sold_out`, nothing written, when a type has too few left), the customer's link to the
 * event and their counts (orders/hold-order.ts, as the box office's sale holds); then its tickets are issued from that hold as a paid
 * checkout's are (issue-order-tickets.ts), the order `active` with them. A failure while
 * issuing leaves the order `pending`, with the tickets issued so far pointing at it:
 * never tickets without an order.
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

  const at = now().toISOString();
  const lines = input.tickets.map((ticket) => ({ ...ticket, price: ticket.price ?? prices.get(ticket.typeId)! }));
  const placed = (id: number): Order => ({
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
    issuedTickets: {},
  });
  const wanted = new Map<number, number>();
  for (const { typeId } of lines) wanted.set(typeId, (wanted.get(typeId) ?? 0) + 1);
  const request = { lines: [...wanted].map(([typeId, quantity]) => ({ typeId, quantity })) };
  const byId = new Map(types.map((type) => [type.id, type]));
  const { order: pending, takes } = await holdOrder(request, byId, placed, event);
  const attendees = lines.map((line) => ({ ...line, waveTimeId: pending.waveTimeId, teamId: pending.teamId }));
  const actor = { kind: 'customer' as const, id: input.customerId };
  const { order, issued } = await issueOrderTickets({
    order: pending,
    attendees,
    takes,
    customerId: input.customerId,
    actor,
  });
  return { order, tickets: issued.map((record) => toTicket(record)) };
}
