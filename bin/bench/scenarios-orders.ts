import { issueToken } from '#shared/identity/services/token-issuer';
import { epochSeconds } from '#shared/clock';
import { createEvent } from '#shared/events/data/event-creation';
import { eventListing } from '#shared/lists/event-listing';
import type { CreatedEvent } from '#shared/events/domain/event';
import { placeOrder } from '../../test/support/factories/orders.ts';
import type { BenchRequest, Scenario } from './scenarios.ts';

/**
 * The portal's list routes, in the shape of `scenarios` (bin/bench/scenarios.ts). Their
 * requests carry a customer token (`token`): the bench's fixture token is an
 * administrator's, which these routes refuse. latency.ts merges these with the others.
 */

const CUSTOMER_ID = 424_242;
const ORDERS = 30;
/** A start window of its own, so other published events stay out of the measured Query. */
const WINDOW = { from: Date.UTC(2031, 0, 1) / 1000, to: Date.UTC(2031, 1, 1) / 1000 };
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

const benchEvent = (day: number, published: boolean) =>
  createEvent(
    {
      title: `Bench portal event ${day}`,
      timezone: 'Europe/London',
      startsAt: iso(WINDOW.from + day * 86_400),
      published,
      venue: 'Bench Arena',
      ticketTypes: [
        { name: 'Bench GA', price: 10, total: 100_000 },
        { name: 'Bench VIP', price: 25, total: 100_000 },
      ],
    },
    eventListing,
  );

let fixture: Promise<{ token: string; events: CreatedEvent[] }> | undefined;

/** Six published events and two hidden ones, and ORDERS two-ticket orders of the customer over them (outside the timed section). */
function portalFixture() {
  fixture ??= (async () => {
    const events: CreatedEvent[] = [];
    for (let day = 1; day <= 8; day++) events.push(await benchEvent(day, day <= 6));
    for (let n = 0; n < ORDERS; n++) {
      const event = events[n % events.length]!;
      await placeOrder(
        event,
        CUSTOMER_ID,
        event.ticketTypes.map((type) => type.id),
        { emailAddress: 'bench-customer@ticketing.bench' },
      );
    }
    const token = await issueToken({
      kind: 'customer',
      id: CUSTOMER_ID,
      email: 'bench-customer@ticketing.bench',
      authTime: epochSeconds(),
    });
    return { token, events };
  })();
  return fixture;
}

export const orderScenarios: Record<string, Scenario> = {
  // A page of 25 orders with their tickets and the customer's counts (totalCount).
  'my-account/orders': async () => {
    const { token } = await portalFixture();
    return {
      request: (): BenchRequest => ({ method: 'GET', url: '/my-account/orders?includeTickets=true', token }),
    };
  },

  // The published events of the window and the customer's linked events (one entry per event), then the page's statistics.
  'my-account/events': async () => {
    const { token } = await portalFixture();
    return {
      request: (): BenchRequest => ({
        method: 'GET',
        url: `/my-account/event?fromEventStart=${WINDOW.from}&toEventStart=${WINDOW.to}`,
        token,
      }),
    };
  },
};
