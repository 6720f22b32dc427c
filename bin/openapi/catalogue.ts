import { DEFAULT_LIMIT, MAX_LIMIT } from '#shared/request-fields';
import type { RouteKey } from '#shared/routes';
import { AUTH, AUTH_TAG } from './catalogue/auth.ts';
import type { RouteDoc } from './catalogue/common.ts';
import { EVENT_PARTS } from './catalogue/event-parts.ts';
import { EVENTS, EVENTS_TAG } from './catalogue/events.ts';
import { GATE, GATE_TAG } from './catalogue/gate.ts';
import { MY_ACCOUNT, MY_ACCOUNT_TAG } from './catalogue/my-account.ts';
import { RESERVATIONS } from './catalogue/reservations.ts';
import { PAYMENTS, PAYMENTS_TAG } from './catalogue/payments.ts';
import { PROMO_CODES } from './catalogue/promo-codes.ts';
import { ORDERS, ORDERS_TAG } from './catalogue/orders.ts';
import { SALES } from './catalogue/sales.ts';
import { SHIPPING_METHOD, SHIPPING_METHOD_TAG } from './catalogue/shipping-method.ts';
import { TICKET, TICKET_TAG } from './catalogue/ticket.ts';
import { TICKETS, TICKETS_TAG } from './catalogue/tickets.ts';
import { WEBHOOKS, WEBHOOKS_TAG } from './catalogue/webhooks.ts';

/**
 * The documentation text of each route, keyed by route key: summaries, descriptions (the
 * route-by-route rules: the README points readers at the docs page for them), parameter
 * descriptions, 409 reasons, the statuses the middy stack cannot infer, and request
 * examples. One module per tag under catalogue/, joined here. Build-time only
 * (bin/openapi/): kept out of shared/routes.ts and the handlers, which every function
 * bundles. test/unit/openapi.test.ts checks that every row has an entry and no entry is stale.
 */
export type { RouteDoc } from './catalogue/common.ts';

/** Parameter descriptions shared by every route that has the parameter. */
export const PARAMETERS: Record<string, string> = {
  id: 'The resource id (a positive integer).',
  ticketId: 'The ticket id (a positive integer).',
  eventId: 'The event id (a positive integer).',
  _limit: `Page size, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}); above the maximum, 400.`,
  _offset: 'How many entries to skip (default 0).',
  result: 'What the answer carries: `none` (204, no body), `id` (the ids, default) or `object` (the whole resources).',
};

/** The tags (the first segment of each handler's module path) and the rules their routes share. */
export const TAGS: Record<string, string> = {
  auth: AUTH_TAG,
  'shipping-method': SHIPPING_METHOD_TAG,
  tickets: TICKETS_TAG,
  ticket: TICKET_TAG,
  gate: GATE_TAG,
  'my-account': MY_ACCOUNT_TAG,
  webhooks: WEBHOOKS_TAG,
  events: EVENTS_TAG,
  payments: PAYMENTS_TAG,
  orders: ORDERS_TAG,
};

/** Every row's entry: a missing or unknown route key does not compile. */
export const CATALOGUE: Record<RouteKey, RouteDoc> = {
  ...AUTH,
  ...SHIPPING_METHOD,
  ...TICKETS,
  ...TICKET,
  ...GATE,
  ...MY_ACCOUNT,
  ...RESERVATIONS,
  ...WEBHOOKS,
  ...EVENTS,
  ...EVENT_PARTS,
  ...PROMO_CODES,
  ...PAYMENTS,
  ...ORDERS,
  ...SALES,
};
