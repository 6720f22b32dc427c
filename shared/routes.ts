/**
 * The route table: the one inventory of the API. Every other part reads it:
 * - infra/ makes one Lambda per row with only the grants named in `uses`;
 * - bin/dev.ts dispatches local HTTP requests by it;
 * - the handler wrapper (`shared/http/route.ts`) takes each route's access rule from it;
 * - bin/openapi.ts generates the OpenAPI document from it and the handlers' schemas;
 * - test/ walks it (auth matrix, spec coverage, one function per row in the template).
 *
 * To add a route: add a row here, add `functions/<handler>.ts` exporting `handler`
 * built with `route('<METHOD> <path>', ...)`, and run `npm test`.
 */
import type { Permission } from './auth/permissions.ts';
import { partitionPatterns as P } from './data/partition-patterns.ts';
import type { Access, RouteRow, TableAction, Uses } from './route-row.ts';
import { TABLE_WRITE_ACTIONS } from './route-row.ts';
import { type JobName, jobs, type TableGrant } from './job-grants.ts';

export type { Access, HttpMethod, RouteRow, TableAction, Uses } from './route-row.ts';
export { TABLE_WRITE_ACTIONS } from './route-row.ts';

const publicRoute = { kind: 'public' } as const;
const customer = { kind: 'customer' } as const;
const signOut = { kind: 'admin', signOut: true } as const;
function admin(): { kind: 'admin' };
function admin<P extends Permission>(permission: P): { kind: 'admin'; permission: P };
function admin(permission?: Permission): Access {
  return permission ? { kind: 'admin', permission } : { kind: 'admin' };
}

// biome-ignore format: the route table reads one route per line, as the STYLE shows it
const table = [
  // Authentication. Identity-provider mode (SITE_AUTH_METHOD=idp): login, vendor/login,
  // callback, logout, change-password; legacy mode: /auth/legacy/*. Each answers 403 in
  // the other mode. Login routes write the PKCE verifier of the login in flight. Rows that
  // sign a token or the login state have `signingKey`.
  { method: 'POST', path: '/auth/login', handler: 'auth/login', auth: publicRoute, uses: { table: ['PutItem'], tableWrites: [P.oauthLogins], identityProvider: 'sign-in', signingKey: true } },
  { method: 'POST', path: '/auth/vendor/login', handler: 'auth/vendor-login', auth: publicRoute, uses: { table: ['PutItem'], tableWrites: [P.oauthLogins], identityProvider: 'sign-in', signingKey: true }, successor: '/auth/login' },
  { method: 'GET', path: '/auth/callback', handler: 'auth/callback', auth: publicRoute, uses: { table: ['UpdateItem', 'DeleteItem'], indexes: ['GSI2'], tableWrites: [P.oauthLogins, P.administrators], identityProvider: 'sign-in', signingKey: true } },
  { method: 'POST', path: '/auth/logout', handler: 'auth/logout', auth: signOut, uses: { table: ['GetItem', 'UpdateItem'], identityProvider: 'sign-in' } },
  { method: 'POST', path: '/auth/change-password', handler: 'auth/change-password', auth: admin(), uses: { table: ['GetItem', 'PutItem'], identityProvider: 'sign-in' } , throttled: true },
  { method: 'GET', path: '/auth/me', handler: 'auth/me', auth: admin(), uses: { table: ['GetItem'] } },
  { method: 'GET', path: '/auth/me2', handler: 'auth/me2', auth: admin(), uses: { table: ['GetItem'] }, successor: '/auth/me' },
  { method: 'POST', path: '/auth/refresh', handler: 'auth/refresh', auth: admin(), uses: { table: ['GetItem'], signingKey: true } },
  // Legacy login upgrades old (bcrypt) hashes to scrypt, hence its writes to administrators.
  { method: 'POST', path: '/auth/legacy/login', handler: 'auth/legacy-login', auth: publicRoute, uses: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], indexes: ['GSI1'], tableWrites: [P.rateWindows, P.logKey, P.administrators], signingKey: true } , throttled: true },
  { method: 'POST', path: '/auth/legacy/logout', handler: 'auth/legacy-logout', auth: signOut, uses: { table: ['GetItem', 'UpdateItem'] } },
  { method: 'POST', path: '/auth/legacy/change-password', handler: 'auth/legacy-change-password', auth: admin(), uses: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], indexes: ['GSI1'] } , throttled: true },
  { method: 'POST', path: '/auth/legacy/forgot-password', handler: 'auth/legacy-forgot-password', auth: publicRoute, uses: { table: ['GetItem', 'PutItem', 'DeleteItem'], indexes: ['GSI2'], tableWrites: [P.rateWindows, P.resetTokens], email: true } , throttled: true },
  { method: 'POST', path: '/auth/legacy/reset-password', handler: 'auth/legacy-reset-password', auth: publicRoute, uses: { table: ['GetItem', 'UpdateItem', 'DeleteItem'], indexes: ['GSI1'], tableWrites: [P.rateWindows, P.resetTokens, P.administrators] } },

  // Shipping methods
  { method: 'GET', path: '/shipping-method', handler: 'shipping-method/list', auth: admin('shipping:read'), uses: { table: ['GetItem'], indexes: ['GSI1'] } },
  { method: 'GET', path: '/shipping-method/{id}', handler: 'shipping-method/get', auth: admin('shipping:read'), uses: { table: ['GetItem'] } },
  { method: 'POST', path: '/shipping-method', handler: 'shipping-method/create', auth: admin('shipping:write'), uses: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] }, idempotent: true },
  { method: 'PATCH', path: '/shipping-method/{id}', handler: 'shipping-method/update', auth: admin('shipping:write'), uses: { table: ['GetItem', 'UpdateItem'] } },
  { method: 'DELETE', path: '/shipping-method/{id}', handler: 'shipping-method/delete', auth: admin('shipping:write'), uses: { table: ['GetItem', 'BatchGetItem', 'UpdateItem', 'DeleteItem'] } },
  { method: 'POST', path: '/shipping-method/bulk-read', handler: 'shipping-method/bulk-read', auth: admin('shipping:read'), uses: { table: ['GetItem', 'BatchGetItem'] } },
  { method: 'POST', path: '/shipping-method/bulk-create', handler: 'shipping-method/bulk-create', auth: admin('shipping:write'), uses: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] }, idempotent: true },
  { method: 'POST', path: '/shipping-method/bulk-update', handler: 'shipping-method/bulk-update', auth: admin('shipping:write'), uses: { table: ['GetItem', 'UpdateItem'] } },
  { method: 'POST', path: '/shipping-method/bulk-delete', handler: 'shipping-method/bulk-delete', auth: admin('shipping:write'), uses: { table: ['GetItem', 'BatchGetItem', 'UpdateItem', 'DeleteItem'] } },

  // Tickets
  { method: 'GET', path: '/tickets', handler: 'tickets/list', auth: admin('tickets:read'), uses: { table: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['GSI1', 'GSI2', 'GSI3'] } },
  { method: 'GET', path: '/tickets/check-in-stats', handler: 'tickets/check-in-stats', auth: admin('tickets:read'), uses: { table: ['GetItem', 'BatchGetItem'] } },
  { method: 'GET', path: '/tickets/{id}', handler: 'tickets/get', auth: admin('tickets:read'), uses: { table: ['GetItem', 'BatchGetItem', 'Query'] } },
  { method: 'PATCH', path: '/tickets/{id}', handler: 'tickets/update', auth: admin('tickets:write'), uses: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] } },
  { method: 'DELETE', path: '/tickets/{id}', handler: 'tickets/delete', auth: admin('tickets:write'), uses: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] } },
  { method: 'POST', path: '/tickets/bulk-delete', handler: 'tickets/bulk-delete', auth: admin('tickets:write'), uses: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] } },
  { method: 'POST', path: '/tickets/{id}/check-in', handler: 'tickets/check-in', auth: admin('checkin:scan'), uses: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] }, idempotent: true },
  { method: 'POST', path: '/tickets/{id}/transfer', handler: 'tickets/transfer', auth: admin('tickets:write'), uses: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], indexes: ['GSI1'] }, idempotent: true },
  { method: 'GET', path: '/tickets/{id}/waivers', handler: 'tickets/waivers', auth: admin('tickets:read'), uses: { table: ['GetItem', 'Query'] } },
  { method: 'POST', path: '/tickets/{id}/sign-waivers', handler: 'tickets/sign-waivers', auth: admin('tickets:write'), uses: { table: ['GetItem', 'Query', 'PutItem'], photos: true } },
  { method: 'POST', path: '/tickets/{id}/profile-photo', handler: 'tickets/profile-photo', auth: admin('tickets:write'), uses: { table: ['GetItem', 'PutItem'], photos: true } },
  { method: 'DELETE', path: '/tickets/{id}/profile-photo', handler: 'tickets/profile-photo-delete', auth: admin('tickets:write'), uses: { table: ['GetItem', 'PutItem'], photos: true } },

  // The gate (ours, README "The gate offline"): scans by barcode, one online or a batch uploaded after working offline, and the admission list to take offline.
  { method: 'POST', path: '/scans', handler: 'gate/scans', auth: admin('checkin:scan'), uses: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem'] } },
  { method: 'GET', path: '/gate-lists/{eventId}', handler: 'gate/gate-list', auth: admin('checkin:scan'), uses: { table: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['GSI1', 'GSI5'] } },

  // Older ticket routes (integrations): the same tickets, state machine and history.
  { method: 'GET', path: '/ticket/{id}', handler: 'ticket/get', auth: admin('tickets:read'), uses: { table: ['GetItem'] } },
  { method: 'GET', path: '/ticket/{ticketId}/answers', handler: 'ticket/answers', auth: admin('tickets:read'), uses: { table: ['GetItem'] } },
  { method: 'GET', path: '/ticket/{ticketId}/is-bib-available/{bib}', handler: 'ticket/is-bib-available', auth: admin('tickets:read'), uses: { table: ['GetItem'] } },
  // The list: ten filters each served by a key, seven expansions, the update-time sync.
  { method: 'GET', path: '/ticket', handler: 'ticket/list', auth: admin('tickets:read'), uses: { table: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5', 'GSI6'] } },
  // Claims: a ticket sent to someone else to claim (the OpenAPI description of the `ticket` tag).
  { method: 'POST', path: '/ticket/{ticketId}/claim', handler: 'ticket/claim', auth: admin('tickets:write'), uses: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], email: true }, idempotent: true , throttled: true },
  { method: 'POST', path: '/ticket/{ticketId}/claimant', handler: 'ticket/claimant', auth: admin('tickets:write'), uses: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], email: true }, idempotent: true , throttled: true },
  { method: 'GET', path: '/ticket/{id}/is-a-claim', handler: 'ticket/is-a-claim', auth: admin('tickets:read'), uses: { table: ['GetItem'] } },
  { method: 'GET', path: '/ticket/{id}/is-claimed', handler: 'ticket/is-claimed', auth: admin('tickets:read'), uses: { table: ['GetItem'] } },
  { method: 'GET', path: '/ticket/{ticketId}/claim-info', handler: 'ticket/claim-info', auth: admin('tickets:read'), uses: { table: ['GetItem'] } },
  // The explicit state route: restores, and undoes a check-in for callers holding checkin:undo.
  { method: 'POST', path: '/ticket/{ticketId}/states', handler: 'ticket/states', auth: admin('tickets:write'), uses: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] } },

  // Events (ours, beyond the spec; README "Where we differ from the spec"): an organiser creates, edits, publishes and deletes events and their ticket types.
  { method: 'POST', path: '/events', handler: 'events/create', auth: admin('events:write'), uses: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem'] } },
  { method: 'GET', path: '/events', handler: 'events/list', auth: admin('events:read'), uses: { table: ['GetItem', 'BatchGetItem'], indexes: ['GSI1', 'GSI2', 'GSI3'] } },
  { method: 'GET', path: '/events/{id}', handler: 'events/get', auth: admin('events:read'), uses: { table: ['GetItem', 'BatchGetItem', 'Query'] } },
  { method: 'PATCH', path: '/events/{id}', handler: 'events/update', auth: admin('events:write'), uses: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], indexes: ['GSI5'] } },
  { method: 'DELETE', path: '/events/{id}', handler: 'events/delete', auth: admin('events:write'), uses: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], indexes: ['GSI5'] } },
  { method: 'GET', path: '/events/{id}/history', handler: 'events/history', auth: admin('events:read'), uses: { table: ['GetItem', 'Query'] } },
  { method: 'POST', path: '/events/{id}/ticket-types', handler: 'events/ticket-type-create', auth: admin('events:write'), uses: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'] } },
  { method: 'PATCH', path: '/events/{id}/ticket-types/{typeId}', handler: 'events/ticket-type-update', auth: admin('events:write'), uses: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], indexes: ['GSI2'] } },
  { method: 'DELETE', path: '/events/{id}/ticket-types/{typeId}', handler: 'events/ticket-type-delete', auth: admin('events:write'), uses: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'DeleteItem'], indexes: ['GSI2'] } },
  { method: 'POST', path: '/events/{id}/teams', handler: 'events/team-create', auth: admin('events:write'), uses: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] } },
  { method: 'PATCH', path: '/events/{id}/teams/{teamId}', handler: 'events/team-update', auth: admin('events:write'), uses: { table: ['GetItem', 'PutItem'] } },
  { method: 'DELETE', path: '/events/{id}/teams/{teamId}', handler: 'events/team-delete', auth: admin('events:write'), uses: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'DeleteItem', 'ConditionCheckItem'] } },
  { method: 'POST', path: '/events/{id}/wave-times', handler: 'events/wave-create', auth: admin('events:write'), uses: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] } },
  { method: 'PATCH', path: '/events/{id}/wave-times/{waveId}', handler: 'events/wave-update', auth: admin('events:write'), uses: { table: ['GetItem', 'Query', 'PutItem'] } },
  { method: 'DELETE', path: '/events/{id}/wave-times/{waveId}', handler: 'events/wave-delete', auth: admin('events:write'), uses: { table: ['GetItem', 'Query', 'BatchGetItem', 'PutItem', 'DeleteItem', 'ConditionCheckItem'] } },
  { method: 'POST', path: '/events/{id}/questions', handler: 'events/question-create', auth: admin('events:write'), uses: { table: ['GetItem', 'PutItem', 'UpdateItem'] } },
  { method: 'PATCH', path: '/events/{id}/questions/{questionId}', handler: 'events/question-update', auth: admin('events:write'), uses: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'] } },
  { method: 'DELETE', path: '/events/{id}/questions/{questionId}', handler: 'events/question-delete', auth: admin('events:write'), uses: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'ConditionCheckItem'] } },
  { method: 'POST', path: '/events/{id}/waivers', handler: 'events/waiver-create', auth: admin('events:write'), uses: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] } },
  { method: 'PATCH', path: '/events/{id}/waivers/{waiverId}', handler: 'events/waiver-update', auth: admin('events:write'), uses: { table: ['GetItem', 'Query', 'PutItem'] } },
  { method: 'DELETE', path: '/events/{id}/waivers/{waiverId}', handler: 'events/waiver-delete', auth: admin('events:write'), uses: { table: ['GetItem', 'Query', 'BatchGetItem', 'PutItem', 'DeleteItem', 'ConditionCheckItem'] } },
  // Ours (shared/README.md "Promo codes"): an event's discount codes, their uses counted on shards a hold takes from.
  { method: 'POST', path: '/events/{id}/promo-codes', handler: 'events/promo-code-create', auth: admin('events:write'), uses: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] } },
  { method: 'GET', path: '/events/{id}/promo-codes', handler: 'events/promo-code-list', auth: admin('events:read'), uses: { table: ['GetItem', 'BatchGetItem', 'Query'] } },
  { method: 'PATCH', path: '/events/{id}/promo-codes/{codeId}', handler: 'events/promo-code-update', auth: admin('events:write'), uses: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'] } },
  { method: 'DELETE', path: '/events/{id}/promo-codes/{codeId}', handler: 'events/promo-code-delete', auth: admin('events:write'), uses: { table: ['GetItem', 'UpdateItem', 'DeleteItem'] } },
  // An event's sales figures per type, from the sums its stock shards keep (no order read).
  { method: 'GET', path: '/events/{id}/sales', handler: 'events/sales', auth: admin('orders:read'), uses: { table: ['GetItem', 'BatchGetItem', 'Query'] } },

  // Orders: staff sell at the box office, read an event's orders and cancel one (its tickets, inventory, the buyer mailed).
  { method: 'GET', path: '/orders', handler: 'orders/list', auth: admin('orders:read'), uses: { table: ['GetItem', 'BatchGetItem'], indexes: ['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5', 'GSI6'] } },
  { method: 'POST', path: '/orders', handler: 'orders/sell', auth: admin('orders:sell'), uses: { table: ['GetItem', 'Query', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], indexes: ['GSI1'], email: true }, idempotent: true },
  // Before /orders/{id}: an event's orders as CSV, a bounded part per answer (no streaming through API Gateway).
  { method: 'GET', path: '/orders/export', handler: 'orders/export', auth: admin('orders:read'), uses: { table: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['GSI3'] } },
  { method: 'GET', path: '/orders/{id}', handler: 'orders/get', auth: admin('orders:read'), uses: { table: ['GetItem', 'BatchGetItem'] } },
  { method: 'POST', path: '/orders/{id}/cancel', handler: 'orders/cancel', auth: admin('orders:refund'), uses: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], payments: true, email: true }, idempotent: true },
  // Ours (shared/README.md "Invoices"): an order's invoice and credit notes, listed and each as a PDF.
  { method: 'GET', path: '/orders/{id}/invoices', handler: 'orders/invoices', auth: admin('orders:read'), uses: { table: ['GetItem', 'Query'] } },
  { method: 'GET', path: '/orders/{id}/invoices/{number}', handler: 'orders/invoice', auth: admin('orders:read'), uses: { table: ['GetItem', 'Query'] } },

  // Customer account (the portal). Every customer row answers only the caller's own data.
  // Identity: login against the customers' pool (public), account creation by an
  // administrator who manages customers, the account itself, and mail to its owner.
  { method: 'PUT', path: '/my-account', handler: 'my-account/login', auth: publicRoute, uses: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], indexes: ['GSI1'], tableWrites: [P.rateWindows, P.logKey, P.customers, P.customerEmails, P.emailVerifications], customerIdentity: 'sign-in', signingKey: true } , throttled: true },
  { method: 'POST', path: '/my-account', handler: 'my-account/create', auth: admin('customers:manage'), uses: { table: ['GetItem', 'PutItem', 'UpdateItem'], indexes: ['GSI2'], customerIdentity: 'manage-users', email: true } },
  // Ours: the public sign-up, the same answer whether or not the address has an account (the OpenAPI description).
  { method: 'POST', path: '/my-account/sign-up', handler: 'my-account/sign-up', auth: publicRoute, uses: { table: ['GetItem', 'PutItem', 'UpdateItem'], tableWrites: [P.rateWindows, P.customerSequence, P.customers, P.customerEmails, P.emailVerifications], customerIdentity: 'manage-users', email: true }, throttled: true },
  { method: 'GET', path: '/my-account', handler: 'my-account/get', auth: customer, uses: { table: ['GetItem'] } },
  { method: 'PATCH', path: '/my-account', handler: 'my-account/update', auth: customer, uses: { table: ['GetItem', 'PutItem', 'UpdateItem'], email: true } , throttled: true },
  { method: 'PUT', path: '/my-account/email', handler: 'my-account/send-email', auth: customer, uses: { table: ['GetItem', 'BatchGetItem', 'PutItem'], indexes: ['GSI1', 'GSI4'], email: true } , throttled: true },
  // Catalogue and orders, scoped to the customer.
  { method: 'GET', path: '/my-account/event', handler: 'my-account/events', auth: customer, uses: { table: ['GetItem', 'BatchGetItem'], indexes: ['GSI1'] } },
  { method: 'GET', path: '/my-account/ticket-type/{eventId}', handler: 'my-account/ticket-types', auth: customer, uses: { table: ['GetItem', 'BatchGetItem', 'Query'] } },
  { method: 'GET', path: '/my-account/wave-time/{eventId}', handler: 'my-account/wave-times', auth: customer, uses: { table: ['GetItem', 'Query'] } },
  { method: 'GET', path: '/my-account/orders', handler: 'my-account/orders', auth: customer, uses: { table: ['GetItem', 'BatchGetItem'], indexes: ['GSI1', 'GSI2'] } },
  { method: 'GET', path: '/my-account/payment-processor', handler: 'my-account/payment-processor', auth: customer, uses: { table: ['GetItem'] } },
  { method: 'GET', path: '/my-account/upgrades/{ticketId}', handler: 'my-account/upgrades', auth: customer, uses: { table: ['GetItem', 'BatchGetItem', 'Query'] } },
  // Ours: what a buyer's checkout form asks, the shipping methods to choose from and an event's attendee questions (shared/README.md "Checkout").
  { method: 'GET', path: '/my-account/shipping-method', handler: 'my-account/shipping-methods', auth: customer, uses: { table: ['GetItem'], indexes: ['GSI1'] } },
  { method: 'GET', path: '/my-account/question/{eventId}', handler: 'my-account/questions', auth: customer, uses: { table: ['GetItem'] } },
  // Ours: the customer's own ticket as a printable one-page PDF with its QR code.
  // Ours: the customer's own order's invoice as a PDF (shared/README.md "Invoices"), linked from the confirmation mail.
  { method: 'GET', path: '/my-account/orders/{id}/invoice', handler: 'my-account/order-invoice', auth: customer, uses: { table: ['GetItem', 'Query'] } },
  { method: 'GET', path: '/my-account/tickets/{ticketId}/pdf', handler: 'my-account/ticket-pdf', auth: customer, uses: { table: ['GetItem', 'BatchGetItem'] } },
  // Ours (the spec has no accepting route): the claimant accepts a claim link's ticket into their account (README "Where we differ from the spec").
  { method: 'POST', path: '/my-account/claim', handler: 'my-account/claim', auth: customer, uses: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] } },
  // Ours (README "Reservations"): a customer holds tickets for the event's reservation minutes, releases them, or they lapse (functions/jobs/release-reservations.ts).
  { method: 'POST', path: '/my-account/reservations', handler: 'my-account/reservation-create', auth: customer, uses: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] }, idempotent: true, throttled: true },
  { method: 'GET', path: '/my-account/reservations/{id}', handler: 'my-account/reservation-get', auth: customer, uses: { table: ['GetItem'] } },
  { method: 'DELETE', path: '/my-account/reservations/{id}', handler: 'my-account/reservation-delete', auth: customer, uses: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], payments: true } },
  { method: 'POST', path: '/my-account/reservations/{id}/checkout', handler: 'my-account/reservation-checkout', auth: customer, uses: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], payments: true }, idempotent: true },

  // Webhooks (ours, beyond the spec; README "Webhooks"): subscriptions, their deliveries, and a test message.
  // Retry and ping send at once, and may turn a failing subscription off and mail its creator.
  { method: 'POST', path: '/webhooks', handler: 'webhooks/create', auth: admin('webhooks:manage'), uses: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], webhookSecrets: true }, idempotent: true },
  { method: 'GET', path: '/webhooks', handler: 'webhooks/list', auth: admin('webhooks:manage'), uses: { table: ['GetItem', 'Query'] } },
  { method: 'GET', path: '/webhooks/{id}', handler: 'webhooks/get', auth: admin('webhooks:manage'), uses: { table: ['GetItem'] } },
  { method: 'PATCH', path: '/webhooks/{id}', handler: 'webhooks/update', auth: admin('webhooks:manage'), uses: { table: ['GetItem', 'PutItem'] } },
  { method: 'DELETE', path: '/webhooks/{id}', handler: 'webhooks/delete', auth: admin('webhooks:manage'), uses: { table: ['GetItem', 'UpdateItem', 'DeleteItem'] } },
  { method: 'POST', path: '/webhooks/{id}/rotate-secret', handler: 'webhooks/rotate-secret', auth: admin('webhooks:manage'), uses: { table: ['GetItem', 'PutItem'], webhookSecrets: true } },
  { method: 'GET', path: '/webhooks/{id}/deliveries', handler: 'webhooks/deliveries', auth: admin('webhooks:manage'), uses: { table: ['GetItem', 'Query'] } },
  { method: 'POST', path: '/webhooks/{id}/deliveries/redeliver', handler: 'webhooks/redeliver', auth: admin('webhooks:manage'), uses: { table: ['GetItem', 'Query', 'PutItem'] }, throttled: true },
  { method: 'POST', path: '/webhooks/{id}/deliveries/{deliveryId}/retry', handler: 'webhooks/retry-delivery', auth: admin('webhooks:manage'), uses: { table: ['GetItem', 'PutItem', 'UpdateItem'], email: true, webhookSecrets: true } },
  { method: 'POST', path: '/webhooks/{id}/ping', handler: 'webhooks/ping', auth: admin('webhooks:manage'), uses: { table: ['GetItem', 'PutItem', 'UpdateItem'], email: true, webhookSecrets: true } },

  // Payments (ours; README "Payments", "Checkout"): Stripe's events, public but signed (verified before any parsing); its writes (a payment's claim, refunds, disputes' cancels) held to `tableWrites`; no ticket is created here (issued behind it: jobs 'issue-paid-orders').
  { method: 'POST', path: '/payments/stripe/webhook', handler: 'payments/stripe-webhook', auth: publicRoute, uses: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem'], tableWrites: [P.orders, P.reservations, P.reservationDue, P.networkHolds, P.stock, P.tickets, P.events, P.ticketCounts, P.ticketPositions, P.customers, P.eventOrderCounts, P.allOrderCounts], payments: true } },
] as const satisfies readonly RouteRow[];

/** The table as rows, for code that walks it. */
export const routes: readonly RouteRow[] = table;

// The literal table types each handler's caller (shared/http/route.ts) from its row.
type Row = (typeof table)[number];
/** Every route's key, `METHOD /path`: a handler naming a route that is not in the table does not compile. */
export type RouteKey = Row extends infer R ? (R extends Row ? `${R['method']} ${R['path']}` : never) : never;
/** The row of a route key. */
export type RowOf<K extends RouteKey> = Row extends infer R
  ? R extends Row
    ? `${R['method']} ${R['path']}` extends K
      ? R
      : never
    : never
  : never;
/** The access kind of a route: `public`, `admin` or `customer`. */
export type AccessKindOf<K extends RouteKey> = RowOf<K>['auth']['kind'];

/** `METHOD /path`, the key API Gateway and the handlers use for a route. */
export const routeKey = (row: Pick<RouteRow, 'method' | 'path'>): string => `${row.method} ${row.path}`;

const byKey = new Map(routes.map((row) => [routeKey(row), row]));

export function findRoute(key: string): RouteRow {
  const row = byKey.get(key);
  if (!row) throw new Error(`Route "${key}" is not in shared/routes.ts`);
  return row;
}

/**
 * What the route wrapper (shared/http/route.ts) itself sends for a row, beside its handler: the session check's
 * GetItem on every authenticated row, the idempotency store's claim, read, answer and release on `idempotent` rows.
 * Every such row names them (test/unit/routes.test.ts). The session check is cached per container, and the tests'
 * in-process routes share one: whichever route comes first sends it, so a full test run cannot show each route
 * sending it, and does not ask to (test/support/table-grants-run.ts).
 */
export function wrapperTableActions(row: Pick<RouteRow, 'auth' | 'idempotent'>): TableAction[] {
  return [
    ...(row.auth.kind === 'public' ? [] : (['GetItem'] as const)),
    ...(row.idempotent ? (['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] as const) : []),
  ];
}

/** The table grant of a function: a route's (by its key) or a job's (by its name); undefined when it has none. */
export function tableGrantOf(fn: string): TableGrant | undefined {
  if (fn in jobs) return jobs[fn as JobName];
  const row = byKey.get(fn);
  return row?.uses.table ? { actions: row.uses.table, indexes: row.uses.indexes } : undefined;
}

/** Whether a row writes the table (any write action granted). */
export const writesTable = (uses: Uses): boolean =>
  uses.table?.some((action) => (TABLE_WRITE_ACTIONS as readonly string[]).includes(action)) ?? false;
