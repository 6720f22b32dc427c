import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedEvent } from '#shared/events/domain/event';
import { call } from '../support/api.ts';
import { deskSale, taxedEvent } from '../support/desk-sales.ts';
import { addPromoCode } from '../support/promo-codes.ts';
import { newAddress } from '../support/mail.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * `GET /orders/export?event=` over HTTP: an event's orders as CSV (RFC 4180, OWASP's formula prefix), each row the
 * order's own amounts, payments, promo code and tax per rate; in bounded parts walked by `Link: rel="next"`, the header
 * on the first part only; another scope's event is 404.
 */
const ORDERS = '/api/v2/orders';
const exportOf = (eventId: number, query = '') => `${ORDERS}/export?event=${eventId}${query}`;
let staff: string;

beforeAll(async () => {
  staff = await adminToken(['orders:sell', 'orders:read', 'orders:refund', 'events:read', 'events:write'], 999_673);
});

/** An RFC 4180 reader for the test: quoted fields with doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let at = 0;
  const take = (next: string, skip = 1) => {
    field += next;
    at += skip;
  };
  while (at < text.length) {
    const char = text[at]!;
    if (quoted && char === '"' && text[at + 1] === '"') take('"', 2);
    else if (char === '"') {
      quoted = !quoted;
      at++;
    } else if (quoted) take(char);
    else if (char === ',') {
      row.push(field);
      field = '';
      at++;
    } else if (char === '\r' && text[at + 1] === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
      at += 2;
    } else take(char);
  }
  expect(row.length + field.length, 'the last row ends with CRLF').toBe(0);
  return rows;
}

/** EUR: runners with 21 % VAT included, kids with 9 %, a booking fee of 1 with 21 % VAT included. */
const eurEvent = () =>
  taxedEvent({
    currency: 'EUR',
    feePerTicket: 1,
    feeTax: { name: 'VAT', rate: 21, inclusive: true },
    runner: { price: 30, tax: { name: 'VAT', rate: 21, inclusive: true } },
    kids: { price: 12.5, tax: { name: 'VAT', rate: 9, inclusive: true } },
  });

const sell = (event: CreatedEvent, quantities: number[], extra: Record<string, unknown> = {}) =>
  deskSale(staff, event, quantities, extra);

async function exported(eventId: number, query = '') {
  const answer = await call('GET', exportOf(eventId, query), { token: staff });
  expect(answer.status, answer.raw).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^text\/csv/);
  return answer;
}

describe("an event's orders exported as CSV", () => {
  it('has a row per order with its amounts, payments, promo code and tax per rate, the cells safe for a spreadsheet', async () => {
    const event = await eurEvent();
    const code = await addPromoCode(event.id, { percentOff: 10 }, staff);
    const hostile = {
      buyer: { emailAddress: newAddress('export'), firstName: '=HYPERLINK("http://x")', lastName: 'Smith, Jr.' },
    };
    const sold = [
      await sell(event, [2, 1], { promoCode: code.code }),
      await sell(event, [0, 2], hostile),
      await sell(event, [1, 0]),
    ];
    const part = await cancelPart(sold[0]);

    const [header, ...rows] = parseCsv((await exported(event.id)).raw);
    expect(header).toEqual([
      'orderId',
      'purchasedDate',
      'status',
      'purchaser',
      'emailAddress',
      'tickets',
      'currency',
      'ticketsAmount',
      'discount',
      'fees',
      'shipping',
      'tax',
      'total',
      'paid',
      'refunded',
      'promoCode',
      'invoiceNumber',
      'billingCompany',
      'billingTaxId',
      'billingAddress',
      'tax VAT 21%',
      'tax VAT 9%',
    ]);
    expect(rows.map((row) => row[0]).sort()).toEqual(sold.map((order) => order.id).sort());
    const column = (row: string[], name: string) => row[header!.indexOf(name)]!;
    for (const order of sold) {
      const row = rows.find((one) => one[0] === order.id)!;
      const { amounts } = order;
      expect(row.slice(6, 13)).toEqual(
        ['EUR', amounts.tickets, amounts.discount, amounts.fees, amounts.shipping, amounts.tax, amounts.total].map(
          (value) => (typeof value === 'number' ? value.toFixed(2) : value),
        ),
      );
      // The columns per rate add up to the order's tax.
      const perRate = Number(column(row, 'tax VAT 21%')) + Number(column(row, 'tax VAT 9%'));
      expect(Math.round(perRate * 100)).toBe(Math.round(amounts.tax * 100));
      // Each desk sale is invoiced in its own request: its row names the invoice staff see listed.
      const documents = await call('GET', `${ORDERS}/${order.id}/invoices`, { token: staff });
      expect(documents.status, documents.raw).toBe(200);
      const invoice = documents.body.data.find((document: { kind: string }) => document.kind === 'invoice');
      expect(column(row, 'invoiceNumber')).toBe(invoice.number);
    }
    const coded = rows.find((row) => row[0] === sold[0].id)!;
    expect(column(coded, 'promoCode')).toBe(code.code);
    expect(column(coded, 'paid')).toBe(sold[0].amounts.total.toFixed(2));
    expect(column(coded, 'refunded')).toBe(part.toFixed(2));
    // Kids only: all of its tax at 9 %.
    const kids = rows.find((row) => row[0] === sold[1].id)!;
    expect(column(kids, 'tax VAT 9%')).not.toBe('0.00');
    // The formula is shown, not run; the comma quoted, not a new cell.
    expect(column(kids, 'purchaser')).toBe(`'=HYPERLINK("http://x") Smith, Jr.`);
    expect((await exported(event.id)).raw).toContain(`"'=HYPERLINK(""http://x"") Smith, Jr."`);
  });

  it('comes in bounded parts walked by Link rel="next", the header on the first only, every order once', async () => {
    const event = await eurEvent();
    const sold = [];
    for (let n = 0; n < 5; n++) sold.push(await sell(event, [1, 0]));
    const seen: string[] = [];
    let next: string | undefined = exportOf(event.id, '&_limit=2');
    const parts: string[][][] = [];
    while (next) {
      const answer = await call('GET', next, { token: staff });
      expect(answer.status, answer.raw).toBe(200);
      parts.push(parseCsv(answer.raw));
      next = /^<([^>]+)>; rel="next"$/.exec(answer.headers.link ?? '')?.[1];
      expect(parts.length).toBeLessThanOrEqual(3);
    }
    expect(parts.map((part) => part.length)).toEqual([3, 2, 1]);
    expect(parts[0]![0]![0]).toBe('orderId');
    for (const part of parts) seen.push(...part.filter((row) => row[0] !== 'orderId').map((row) => row[0]!));
    // Newest first, as GET /orders lists them, each once.
    expect(seen).toEqual(sold.map((order) => order.id).reverse());
  });

  it('refuses a missing or bad event with 400, and answers 404 for another scope’s event', async () => {
    const event = await eurEvent();
    expect((await call('GET', `${ORDERS}/export`, { token: staff })).status).toBe(400);
    expect((await call('GET', exportOf(event.id, '&_limit=1001'), { token: staff })).status).toBe(400);
    expect((await call('GET', exportOf(event.id, '&_cursor=nope'), { token: staff })).status).toBe(400);
    const scoped = await adminToken(['orders:read'], 999_674, { eventScope: [event.id + 1_000_000] });
    expect((await call('GET', exportOf(event.id), { token: scoped })).status).toBe(404);
  });
});

/** Cancels the order's first ticket: what it refunded, at the desk. */
async function cancelPart(order: { id: string; ticketIds: string[] }): Promise<number> {
  const part = await call('POST', `${ORDERS}/${order.id}/cancel`, {
    token: staff,
    body: { ticketIds: [Number(order.ticketIds[0])] },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(part.status, part.raw).toBe(200);
  const refunds = part.body.data.payment.transactions.filter((one: { amount: number }) => one.amount < 0);
  return -refunds.reduce((sum: number, one: { amount: number }) => sum + one.amount, 0);
}
