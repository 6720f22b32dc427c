import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobs } from '#shared/job-grants';
import { routeKey, routes, wrapperTableActions, writesTable } from '#shared/routes';
import { leadingKeyAllowed } from '../support/iam-patterns.ts';

/** The 55 operations of spec/ticketing-api-v2.md, as `METHOD /path` below `/api/v2`. */
const SPEC_ROUTES = [
  // Authentication
  'POST /auth/login',
  'POST /auth/vendor/login',
  'GET /auth/callback',
  'GET /auth/me',
  'GET /auth/me2',
  'POST /auth/logout',
  'POST /auth/refresh',
  'POST /auth/legacy/login',
  'POST /auth/legacy/logout',
  'POST /auth/change-password',
  'POST /auth/legacy/change-password',
  'POST /auth/legacy/forgot-password',
  'POST /auth/legacy/reset-password',
  // Shipping methods (the spec writes the list as `/shipping-method/`; the trailing slash is not part of the route)
  'GET /shipping-method',
  'GET /shipping-method/{id}',
  'DELETE /shipping-method/{id}',
  'PATCH /shipping-method/{id}',
  'POST /shipping-method',
  'POST /shipping-method/bulk-read',
  'POST /shipping-method/bulk-create',
  'POST /shipping-method/bulk-update',
  'POST /shipping-method/bulk-delete',
  // Tickets
  'GET /tickets',
  'GET /tickets/check-in-stats',
  'GET /tickets/{id}',
  'DELETE /tickets/{id}',
  'PATCH /tickets/{id}',
  'GET /tickets/{id}/waivers',
  'POST /tickets/{id}/check-in',
  'POST /tickets/{id}/transfer',
  'POST /tickets/{id}/sign-waivers',
  'POST /tickets/{id}/profile-photo',
  'DELETE /tickets/{id}/profile-photo',
  'POST /tickets/bulk-delete',
  // Older ticket routes
  'GET /ticket',
  'GET /ticket/{id}',
  'GET /ticket/{ticketId}/answers',
  'GET /ticket/{ticketId}/claim-info',
  'GET /ticket/{id}/is-a-claim',
  'GET /ticket/{id}/is-claimed',
  'POST /ticket/{ticketId}/claimant',
  'POST /ticket/{ticketId}/claim',
  'GET /ticket/{ticketId}/is-bib-available/{bib}',
  'POST /ticket/{ticketId}/states',
  // Customer account
  'GET /my-account',
  'PUT /my-account',
  'POST /my-account',
  'PATCH /my-account',
  'GET /my-account/event',
  'GET /my-account/ticket-type/{eventId}',
  'GET /my-account/wave-time/{eventId}',
  'GET /my-account/orders',
  'GET /my-account/payment-processor',
  'GET /my-account/upgrades/{ticketId}',
  'PUT /my-account/email',
];

/**
 * Routes the spec does not have, each added for a flow it leaves without one (README "Where we differ from the spec"),
 * the webhooks, which the spec does not describe at all (README "Webhooks"), and the gate's own way in (README "The gate offline").
 */
const OUR_ROUTES = [
  'POST /scans',
  'GET /gate-lists/{eventId}',
  'POST /events',
  'GET /events',
  'GET /events/{id}',
  'PATCH /events/{id}',
  'DELETE /events/{id}',
  'GET /events/{id}/history',
  'POST /events/{id}/ticket-types',
  'PATCH /events/{id}/ticket-types/{typeId}',
  'DELETE /events/{id}/ticket-types/{typeId}',
  'POST /events/{id}/teams',
  'PATCH /events/{id}/teams/{teamId}',
  'DELETE /events/{id}/teams/{teamId}',
  'POST /events/{id}/wave-times',
  'PATCH /events/{id}/wave-times/{waveId}',
  'DELETE /events/{id}/wave-times/{waveId}',
  'POST /events/{id}/questions',
  'PATCH /events/{id}/questions/{questionId}',
  'DELETE /events/{id}/questions/{questionId}',
  'POST /events/{id}/waivers',
  'PATCH /events/{id}/waivers/{waiverId}',
  'DELETE /events/{id}/waivers/{waiverId}',
  // An event's discount codes, which buyers name on their hold (shared/README.md "Promo codes").
  'POST /events/{id}/promo-codes',
  'GET /events/{id}/promo-codes',
  'PATCH /events/{id}/promo-codes/{codeId}',
  'DELETE /events/{id}/promo-codes/{codeId}',
  // Staff's figures: an event's sales per type, and its orders as CSV in parts (shared/README.md "Sales figures and the export").
  'GET /events/{id}/sales',
  'GET /orders',
  'POST /orders',
  'GET /orders/export',
  'GET /orders/{id}',
  'POST /orders/{id}/cancel',
  // An order's invoice and credit notes (shared/README.md "Invoices").
  'GET /orders/{id}/invoices',
  'GET /orders/{id}/invoices/{number}',
  'POST /my-account/sign-up',
  'GET /my-account/shipping-method',
  'GET /my-account/question/{eventId}',
  'GET /my-account/orders/{id}/invoice',
  'GET /my-account/tickets/{ticketId}/pdf',
  'POST /my-account/claim',
  'POST /my-account/reservations',
  'GET /my-account/reservations/{id}',
  'DELETE /my-account/reservations/{id}',
  'POST /my-account/reservations/{id}/checkout',
  'POST /webhooks',
  'GET /webhooks',
  'GET /webhooks/{id}',
  'PATCH /webhooks/{id}',
  'DELETE /webhooks/{id}',
  'POST /webhooks/{id}/rotate-secret',
  'GET /webhooks/{id}/deliveries',
  'POST /webhooks/{id}/deliveries/redeliver',
  'POST /webhooks/{id}/deliveries/{deliveryId}/retry',
  'POST /webhooks/{id}/ping',
  // Checkout: Stripe's events (README "Payments").
  'POST /payments/stripe/webhook',
];

const functionsDir = join(import.meta.dirname, '../../functions');
/** The deployed functions no route calls (stream consumer, dispatcher, migrations runner): not handlers of rows. */
const jobsDir = join(functionsDir, 'jobs');

function handlerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === jobsDir ? [] : handlerFiles(path);
    return entry.name.endsWith('.ts') ? [relative(functionsDir, path).replace(/\.ts$/, '')] : [];
  });
}

describe('the route table', () => {
  it('lists the 55 operations of the spec', () => {
    expect(new Set(SPEC_ROUTES).size).toBe(55);
  });

  it('holds only routes of the spec and our named additions, each once', () => {
    const keys = routes.map(routeKey);
    expect(keys.filter((key) => !SPEC_ROUTES.includes(key))).toEqual(OUR_ROUTES);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('names a handler file for every row, and every handler file has a row', () => {
    const files = handlerFiles(functionsDir).sort();
    expect(routes.map((row) => row.handler).sort()).toEqual(files);
  });

  it('implements every route of the spec, and besides them only our named additions', () => {
    const implemented = routes.filter((row) => SPEC_ROUTES.includes(routeKey(row))).length;
    console.log(`routes implemented: ${implemented}/${SPEC_ROUTES.length}`);
    expect(implemented).toBe(SPEC_ROUTES.length);
    expect(routes.length).toBe(SPEC_ROUTES.length + OUR_ROUTES.length);
  });
});

describe('leadingKeyAllowed (the IAM StringLike patterns of tableWrites)', () => {
  it('matches as IAM does: * any run, the rest literally, the whole key', () => {
    expect(leadingKeyAllowed('RATE#LOGIN#x', ['RATE#*'])).toBe(true);
    expect(leadingKeyAllowed('LOG_KEY', ['LOG_KEY'])).toBe(true);
    expect(leadingKeyAllowed('LOG_KEYS', ['LOG_KEY'])).toBe(false);
    expect(leadingKeyAllowed('TICKET#1', ['RATE#*', 'ADMIN#*'])).toBe(false);
    expect(leadingKeyAllowed('XRATE#1', ['RATE#*'])).toBe(false);
    expect(leadingKeyAllowed('UNIQUE#CUSTOMER_EMAIL#a@b', ['UNIQUE#CUSTOMER_EMAIL#*'])).toBe(true);
    expect(leadingKeyAllowed('UNIQUE#BARCODE#1', ['UNIQUE#CUSTOMER_EMAIL#*'])).toBe(false);
    expect(leadingKeyAllowed('A12B', ['A*C'])).toBe(false);
    expect(leadingKeyAllowed('A%B', ['A%B'])).toBe(true);
    expect(leadingKeyAllowed('AXB', ['A%B'])).toBe(false);
    // A hostile key costs linear work.
    expect(leadingKeyAllowed(`${'a'.repeat(5000)}b`, ['*a*a*a*a*a*a*a*a*c'])).toBe(false);
  });

  it('is declared by every public row that writes', () => {
    for (const row of routes.filter((r) => r.auth.kind === 'public' && writesTable(r.uses)))
      expect(row.uses.tableWrites?.length, routeKey(row)).toBeGreaterThan(0);
  });
});

describe("the rows' table grants", () => {
  it('name what the route wrapper sends for them: the session check, the idempotency store', () => {
    for (const row of routes.filter((r) => r.uses.table))
      expect(row.uses.table, routeKey(row)).toEqual(expect.arrayContaining(wrapperTableActions(row)));
  });

  it('name each action and index once, and no Scan (a job may; no route)', () => {
    for (const row of routes) {
      const actions: readonly string[] = row.uses.table ?? [];
      expect(new Set(actions).size, routeKey(row)).toBe(actions.length);
      expect(new Set(row.uses.indexes).size, routeKey(row)).toBe(row.uses.indexes?.length ?? 0);
      expect(actions, routeKey(row)).not.toContain('Scan');
      if (row.uses.indexes?.length) expect(row.uses.table, routeKey(row)).toBeDefined();
    }
    expect(jobs['ticket-changes'].actions).not.toContain('Scan');
    expect(jobs.dispatch.actions).not.toContain('Scan');
  });
});
