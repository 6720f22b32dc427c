import { getEvent } from '#shared/events/data/events';
import type { CreatedEvent } from '#shared/events/domain/event';
import { updateEventFor } from '#shared/events/use-cases/edit-events';
import { getCustomer, insertCustomer } from '#shared/identity/data/customers';
import { newCustomerRecord } from '#shared/identity/domain/customer';
import { getOrder } from '#shared/selling/data/orders';
import type { BoxOfficeSaleBody } from '#shared/selling/domain/box-office-body';
import type { BoxOfficeMethod, Order } from '#shared/selling/domain/order';
import { sellOrder } from '#shared/selling/use-cases/sell-order';
import { sampleAttendee } from './tickets.ts';
import { catchUpTickets } from '#shared/webhooks/use-cases/jobs';

/**
 * Orders for the customer portal: the integration tests, the demo seed (bin/seed/orders.ts) and the bench place them
 * as the box office sells them (`sellOrder`, the use case of `POST /orders`), so an order made for a test is made by
 * the one rule that makes orders (a checkout's goes through the hold and its payment: test/support/paid-checkout.ts).
 * Each order is for one event.
 */

/** The staff member the fixtures sell as: unscoped, so any event. */
const FIXTURE_DESK = { id: 999_001 };

export interface OrderOptions {
  /** The buyer's address the confirmation goes to (else `customer-<id>@example.test`). */
  emailAddress?: string;
  /** How the desk was paid (else `card_present`: no processor holds it, so a cancel refunds it at the desk). */
  method?: BoxOfficeMethod;
}

/**
 * The box office's sale of `typeIds` (one attendee each, the event's questions answered, the event's first wave) to a
 * customer: one line per type, in the order the types first appear. The customer's account is made first when the
 * id has none (as the seeds make one); a draft is published for the sale and
 * unpublished after it, through the events' own use case, as an organiser would sell before taking an event down.
 */
export function sampleSale(event: CreatedEvent, customerId: number, typeIds: number[], options: OrderOptions = {}) {
  const quantities = new Map<number, number>();
  for (const typeId of typeIds) quantities.set(typeId, (quantities.get(typeId) ?? 0) + 1);
  const waveTimeId = event.waveTimes[0]?.id;
  const attendees = [...quantities]
    .flatMap(([, quantity]) => Array.from({ length: quantity }))
    .map((_, n) => {
      const ticket = sampleAttendee(event, customerId + n);
      const birthDate = `${ticket.partyMemberBirthYear}-${String(ticket.partyMemberBirthMonth).padStart(2, '0')}-${String(ticket.partyMemberBirthDay).padStart(2, '0')}`;
      return {
        firstName: ticket.partyMember!,
        lastName: ticket.partyMemberLastName!,
        email: ticket.emailAddress!,
        birthDate,
        answers: (ticket.attendeeQuestions ?? []).map(({ questionId, answerId, answerText }) => ({
          questionId,
          ...(answerId === undefined ? {} : { answerId }),
          ...(answerText === undefined ? {} : { answerText }),
        })),
      };
    });
  const first = attendees[0];
  return {
    eventId: event.id,
    lines: [...quantities].map(([typeId, quantity]) => ({
      typeId,
      quantity,
      ...(waveTimeId === undefined ? {} : { waveTimeId }),
    })),
    // The customer's id in the desk's reference, delimited: a marker of this customer's order (auth-matrix.test.ts).
    payment: { method: options.method ?? 'card_present', reference: `desk-${customerId}-${event.id}` },
    buyer: {
      emailAddress: options.emailAddress ?? `customer-${customerId}@example.test`,
      firstName: first?.firstName ?? 'Guest',
      lastName: first?.lastName ?? '',
    },
    attendees,
    customerId,
  } satisfies BoxOfficeSaleBody;
}

export async function placeOrder(
  event: CreatedEvent,
  customerId: number,
  typeIds: number[],
  options: OrderOptions = {},
): Promise<Order> {
  const sale = sampleSale(event, customerId, typeIds, options);
  if (!(await getCustomer(customerId))) await insertFixtureCustomer(customerId, sale.buyer.emailAddress);
  const sell = async () => {
    const order = (await getOrder(Number((await sellOrder(FIXTURE_DESK, sale)).id)))!;
    // Its tickets handed to the stream's consumer, as the deployed table's stream would: listed once this answers.
    await catchUpTickets(order.ticketIds);
    return order;
  };
  if (event.published && (await getEvent(event.id)).published) return sell();
  return inTurn(event.id, async () => {
    const draft = !(await getEvent(event.id)).published;
    if (draft) await updateEventFor(FIXTURE_DESK, event.id, { published: true });
    try {
      return await sell();
    } finally {
      if (draft) await updateEventFor(FIXTURE_DESK, event.id, { published: false });
    }
  });
}

/** A verified account without a Cognito user, as the seeds write one (bin/seed/customers.ts): nobody signs in as it. */
async function insertFixtureCustomer(id: number, emailAddress: string): Promise<void> {
  const link = `test-${id}`;
  const fields = {
    id,
    cognitoSub: link,
    cognitoUsername: link,
    emailAddress,
    name: `Customer ${id}`,
    emailVerified: true,
  };
  await insertCustomer(newCustomerRecord(fields, new Date().toISOString()), null);
}

/** Sales of one draft one at a time: each publishes it for its sale and unpublishes it after, so none sees it taken down mid-sale. */
const draftSales = new Map<number, Promise<unknown>>();
function inTurn<T>(eventId: number, work: () => Promise<T>): Promise<T> {
  const turn = (draftSales.get(eventId) ?? Promise.resolve()).catch(() => undefined).then(work);
  draftSales.set(eventId, turn);
  return turn;
}
