import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeKey, routes } from '#shared/routes';
import type { RouteRow } from '#shared/route-row';
import { closureOf, packagesOf, ROOT } from '../support/import-closure.ts';

/**
 * A function loads at its cold start every package its bundle holds, so the heavy ones stay in the routes that need
 * them: Stripe's SDK only where the row calls Stripe (`payments`), SES only where it mails (`email`), pdf-lib only
 * where the handler answers a PDF (`binary: 'application/pdf'`). A route's packages are those its handler's import
 * closure imports for their values (test/support/import-closure.ts: the files a bundle holds of ours, then their
 * packages), so this reads sources, not bundles.
 */
const HEAVY: Record<string, (row: RouteRow, handlerSource: string) => boolean> = {
  stripe: (row) => row.uses.payments === true,
  '@aws-sdk/client-sesv2': (row) => row.uses.email === true,
  'pdf-lib': (_row, source) => source.includes("binary: 'application/pdf'"),
};

const handlerFile = (row: RouteRow) => `functions/${row.handler}.ts`;

/** The heavy packages a route's bundle holds that its row does not need. */
function unneeded(row: RouteRow): string[] {
  const source = readFileSync(path.join(ROOT, handlerFile(row)), 'utf8');
  const reached = new Set([...closureOf(handlerFile(row))].flatMap(packagesOf));
  return Object.entries(HEAVY).flatMap(([name, needs]) => (reached.has(name) && !needs(row, source) ? [name] : []));
}

describe("a route's heavy packages", () => {
  it('finds them where they are needed: the checkout pays, the order mail is sent, a ticket is drawn', () => {
    const held = (key: string) => {
      const row = routes.find((one) => routeKey(one) === key)!;
      return new Set([...closureOf(handlerFile(row))].flatMap(packagesOf));
    };
    expect(held('POST /my-account/reservations/{id}/checkout').has('stripe')).toBe(true);
    expect(held('POST /orders').has('@aws-sdk/client-sesv2')).toBe(true);
    expect(held('GET /my-account/tickets/{ticketId}/pdf').has('pdf-lib')).toBe(true);
  });

  it('are held only by the routes that pay (Stripe), mail (SES) or draw a PDF (pdf-lib)', () => {
    const carrying = routes.flatMap((row) => unneeded(row).map((name) => `${routeKey(row)}: ${name}`));
    expect(carrying).toEqual([]);
  });
});
