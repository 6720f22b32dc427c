import { expect } from 'vitest';
import type { CreatedEvent } from '#shared/events/domain/event';
import type { TaxRule } from '#shared/selling/domain/pricing-schemas';
import { call } from './api.ts';
import { seedEvent } from './factories/tickets.ts';
import { newAddress } from './mail.ts';

/** The sales the figures' tests make: a taxed event with a fee, and box-office sales of it over HTTP. */

/** A type's price and tax, as `taxedEvent` takes them. */
interface TaxedType {
  price: number;
  tax: TaxRule;
}

/**
 * A published event in `currency` with a runner's and a kids' type (50 each, taxed as given) and a booking fee per
 * ticket with its own tax: a sale of it moves every figure (tickets, tax by rate, fees).
 */
export const taxedEvent = (pricing: {
  currency: string;
  feePerTicket: number;
  feeTax: TaxRule;
  runner: TaxedType;
  kids: TaxedType;
}): Promise<CreatedEvent> =>
  seedEvent({
    published: true,
    questions: [],
    currency: pricing.currency,
    bookingFee: { perTicket: pricing.feePerTicket },
    feeTax: pricing.feeTax,
    ticketTypes: [
      { name: 'Runner', total: 50, ...pricing.runner },
      { name: 'Kids', total: 50, ...pricing.kids },
    ],
  });

/**
 * `POST /orders` by `token`, paid in cash: `quantities[n]` tickets of the event's n-th type, each attendee named, the
 * buyer Ada Lovelace at a new address; `extra` adds to the body (a promo code, another buyer). The order as answered.
 */
export async function deskSale(
  token: string,
  event: CreatedEvent,
  quantities: number[],
  extra: Record<string, unknown> = {},
) {
  const lines = quantities.flatMap((quantity, n) => (quantity ? [{ typeId: event.ticketTypes[n]!.id, quantity }] : []));
  const count = quantities.reduce((sum, quantity) => sum + quantity, 0);
  const sold = await call('POST', '/api/v2/orders', {
    token,
    body: {
      eventId: event.id,
      lines,
      payment: { method: 'cash' },
      buyer: { emailAddress: newAddress('desk'), firstName: 'Ada', lastName: 'Lovelace' },
      attendees: Array.from({ length: count }, (_, n) => ({ firstName: `A${n}`, lastName: 'L', email: 'a@b.co' })),
      ...extra,
    },
  });
  expect(sold.status, sold.raw).toBe(201);
  return sold.body.data;
}
