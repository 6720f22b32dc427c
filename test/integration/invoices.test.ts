import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys as tableKeys } from '#shared/data/keys';
import { invoiceNumbersOf, readLastNumber, readOrderDocuments } from '#shared/selling/data/invoices';
import { getOrder } from '#shared/selling/data/orders';
import { rateTotals, sellerKey, seriesOf } from '#shared/selling/domain/invoice';
import { handler as issuePaidOrders } from '../../functions/jobs/issue-paid-orders.ts';
import { runAs } from '../../bin/local/invoke.ts';
import { call } from '../support/api.ts';
import { countWrites } from '../support/dynamo-writes.ts';
import { mailTo } from '../support/mail.ts';
import { checkedOut, type CheckoutOptions, payAsBrowser } from '../support/paid-checkout.ts';
import { claimedThenIssued } from '../support/paid-order-issuing.ts';
import { parsed } from '../support/pdf-text.ts';
import {
  confirmAsBrowser,
  type StandInKeys,
  standInControl,
  standInKeys,
  type WebhookRelay,
  webhookRelay,
} from '../support/stripe.ts';
import { adminToken, customerToken } from '../support/tokens.ts';

/**
 * Invoices and credit notes (shared/README.md "Invoices"): a paid order's invoice with its seller, buyer, lines and
 * totals per rate, numbered gapless per seller and series when its tickets are issued (none for a declined payment;
 * 20 orders issued at once by concurrent batches of the consumer get consecutive numbers in each of their series,
 * and a batch handed over again writes nothing), a part's and the rest's credit notes, the buyer's PDF and staff's list and PDF, each only to
 * whom it belongs. This file's invoices name a seller of their own (INVOICE_SELLER), so its numbers are its own,
 * in SERIES series (INVOICE_SERIES), so that orders at once are numbered in several.
 */
const SERIES = 3;
const SELLER = {
  name: 'Invoice Test GmbH',
  address: 'Hauptstrasse 1, 10115 Berlin, DE',
  taxId: `DE${String(Date.now()).slice(-9)}`,
};
const ORDERS = '/api/v2/orders';
const TAXED: CheckoutOptions['pricing'] = {
  tax: { name: 'VAT', rate: 21, inclusive: true },
  bookingFee: { perTicket: 1 },
  feeTax: { name: 'VAT', rate: 21, inclusive: false },
};

let stripe: StandInKeys;
let relay: WebhookRelay;
let staff: string;
let sellerBefore: string | undefined;
let seriesBefore: string | undefined;

beforeAll(async () => {
  sellerBefore = process.env.INVOICE_SELLER;
  process.env.INVOICE_SELLER = JSON.stringify(SELLER);
  seriesBefore = process.env.INVOICE_SERIES;
  process.env.INVOICE_SERIES = String(SERIES);
  stripe = await standInKeys();
  relay = await webhookRelay();
  staff = await adminToken(['orders:read', 'orders:refund'], 999_660);
});
afterAll(() => {
  process.env.INVOICE_SELLER = sellerBefore;
  process.env.INVOICE_SERIES = seriesBefore;
  return relay.close();
});

/** A checkout paid (the webhook's claim), its tickets not yet issued. */
async function paidNotIssued(options: CheckoutOptions = {}) {
  const bought = await checkedOut(stripe, relay, { quantity: 2, price: 121, pricing: TAXED, ...options });
  await payAsBrowser(stripe, bought.intent);
  return bought;
}

/** A checkout paid and issued by the consumer (one order, one batch). */
async function paidOrder(options: CheckoutOptions = {}) {
  const bought = await paidNotIssued(options);
  expect((await claimedThenIssued(bought.orderId)).status).toBe('active');
  return bought;
}

/** The consumer's handler handed these orders' records as one batch. */
const issueBatch = (orderIds: readonly number[]) =>
  runAs('issue-paid-orders', () =>
    issuePaidOrders({
      Records: orderIds.map(
        (id): DynamoDBRecord => ({
          eventName: 'MODIFY',
          dynamodb: { Keys: marshall(tableKeys.order(id)) as never, SequenceNumber: `${id}` },
        }),
      ),
    }),
  );

const sequenceOf = (number: string) => Number(number.split('-')[2]);
const letterOf = (series: number) => String.fromCharCode(65 + series);
/** The last number of the series an order is numbered in (its id's), of this year. */
const lastOfSeries = (seller: string, orderId: string | number) =>
  readLastNumber({ seller, year: new Date().getUTCFullYear(), series: seriesOf(Number(orderId), SERIES) });
/** How many numbers a seller gave this year, all series together. */
const givenOf = async (seller: string) =>
  (
    await Promise.all(
      Array.from({ length: SERIES }, (_, series) =>
        readLastNumber({ seller, year: new Date().getUTCFullYear(), series }),
      ),
    )
  ).reduce((sum, last) => sum + last, 0);
const invoiceOf = async (orderId: string | number) =>
  (await readOrderDocuments(Number(orderId))).find((document) => document.kind === 'invoice');

describe("a paid order's invoice", () => {
  it('names the seller and the buyer, each line with its rate and tax, the totals per rate, and adds up to the order', async () => {
    const bought = await paidOrder();
    const order = (await getOrder(Number(bought.orderId)))!;
    const invoice = (await invoiceOf(bought.orderId))!;
    expect(invoice).toMatchObject({
      kind: 'invoice',
      orderId: order.id,
      currency: 'EUR',
      seller: SELLER,
      buyer: { name: order.purchaser, email: order.emailAddress },
    });
    const letter = letterOf(seriesOf(order.id, SERIES));
    expect(invoice.number).toMatch(new RegExp(`^${new Date().getUTCFullYear()}-${letter}-\\d{6}$`));
    // Two tickets at EUR 121 with 21 % included: 42 of tax; the fee 2 × 1 with 21 % added: 2.42, 0.42 of it tax.
    expect(invoice.lines).toEqual([
      {
        key: expect.stringMatching(/^type:/),
        text: 'Runner',
        quantity: 2,
        gross: 24200,
        tax: 4200,
        taxName: 'VAT',
        rate: 21,
      },
      { key: 'fee', text: 'Booking fee', quantity: 1, gross: 242, tax: 42, taxName: 'VAT', rate: 21 },
    ]);
    expect(rateTotals(invoice.lines)).toEqual([{ name: 'VAT', rate: 21, net: 20200, tax: 4242, gross: 24442 }]);
    expect(order.grandTotal).toBe(244.42);
    expect(order.amounts!.tax).toBe(42.42);

    const listed = await call('GET', `${ORDERS}/${bought.orderId}/invoices`, { token: staff });
    expect(listed.status, listed.raw).toBe(200);
    expect(listed.body.data).toEqual([
      { number: invoice.number, kind: 'invoice', issuedAt: invoice.issuedAt, total: 244.42, currency: 'EUR' },
    ]);
  });

  it("answers its buyer the PDF, and another customer's order is a 404", async () => {
    const bought = await paidOrder();
    const invoice = (await invoiceOf(bought.orderId))!;
    const mine = await call('GET', `/api/v2/my-account/orders/${bought.orderId}/invoice`, { token: bought.token });
    expect(mine.status, mine.raw).toBe(200);
    expect(mine.headers['content-type']).toBe('application/pdf');
    expect(mine.headers['content-disposition']).toBe(`inline; filename="invoice-${invoice.number}.pdf"`);
    const { document, text } = await parsed(mine.bytes);
    expect(document.getPageCount()).toBe(1);
    expect(text).toEqual(
      expect.arrayContaining([
        `Invoice ${invoice.number}`,
        SELLER.name,
        SELLER.address,
        `Tax id ${SELLER.taxId}`,
        'Runner',
        'VAT 21 %',
        'EUR 244.42',
      ]),
    );
    // The confirmation mail links it, through the portal's origin.
    const mails = (await mailTo(bought.email)).filter((mail) => mail.subject?.startsWith('Your tickets for'));
    expect(mails.map((mail) => mail.body.text)).toEqual([
      expect.stringContaining(`/api/v2/my-account/orders/${bought.orderId}/invoice`),
    ]);
    const other = await customerToken(999_661);
    const theirs = await call('GET', `/api/v2/my-account/orders/${bought.orderId}/invoice`, { token: other });
    expect(theirs.status, theirs.raw).toBe(404);
  });

  it("gives no number to a declined payment: its series' counter does not move, the next paid order takes the next number", async () => {
    const unpaid = await checkedOut(stripe, relay, { pricing: TAXED });
    const lastBefore = await lastOfSeries(sellerKey(SELLER), unpaid.orderId);
    const declined = await confirmAsBrowser(stripe, unpaid.intent, 'pm_card_chargeDeclined');
    expect(declined.body.error ?? declined.body.last_payment_error).toBeTruthy();
    await standInControl(stripe, 'POST', 'settle');
    expect((await getOrder(Number(unpaid.orderId)))!.status).toBe('awaiting_payment');
    const refused = await call('GET', `/api/v2/my-account/orders/${unpaid.orderId}/invoice`, { token: unpaid.token });
    expect(refused.status, refused.raw).toBe(409);
    expect(refused.body.reason).toBe('not_invoiced');
    expect(await invoiceOf(unpaid.orderId)).toBeUndefined();
    expect(await lastOfSeries(sellerKey(SELLER), unpaid.orderId)).toBe(lastBefore);
    const next = await paidNotIssued();
    const nextBefore = await lastOfSeries(sellerKey(SELLER), next.orderId);
    expect((await claimedThenIssued(next.orderId)).status).toBe('active');
    const numbered = (await invoiceOf(next.orderId))!.number;
    expect(numbered.split('-')[1]).toBe(letterOf(seriesOf(Number(next.orderId), SERIES)));
    expect(sequenceOf(numbered)).toBe(nextBefore + 1);
  });
});

describe("an event's own seller", () => {
  it("names the event's seller, numbered from that seller's own sequence, and the event answers it", async () => {
    const own = { name: 'Canal Races B.V.', address: 'Gracht 2, Amsterdam, NL', taxId: `NL${Date.now()}B01` };
    const first = await paidOrder({ quantity: 1, pricing: { ...TAXED, seller: own } });
    const invoice = (await invoiceOf(first.orderId))!;
    expect(invoice.seller).toEqual(own);
    const letter = letterOf(seriesOf(Number(first.orderId), SERIES));
    expect(invoice.number).toBe(`${new Date().getUTCFullYear()}-${letter}-000001`);
    const event = await call('GET', `/api/v2/events/${first.eventId}`, {
      token: await adminToken(['events:read'], 999_664),
    });
    expect(event.body.data.seller).toEqual(own);
    // The stage's seller's sequence did not move for it.
    const stage = await givenOf(sellerKey(SELLER));
    await paidOrder({ quantity: 1 });
    expect(await givenOf(sellerKey(SELLER))).toBe(stage + 1);
  });
});

describe('numbering at once', () => {
  it('gives 20 orders issued by 4 concurrent batches consecutive numbers in each series, and a batch handed over again writes nothing', async () => {
    const lasts = () =>
      Promise.all(
        Array.from({ length: SERIES }, (_, series) =>
          readLastNumber({ seller: sellerKey(SELLER), year: new Date().getUTCFullYear(), series }),
        ),
      );
    const before = await lasts();
    const bought = [];
    for (let n = 0; n < 4; n++)
      bought.push(...(await Promise.all([0, 1, 2, 3, 4].map(() => paidNotIssued({ quantity: 1 })))));
    const ids = bought.map((each) => Number(each.orderId));
    const batches = [0, 1, 2, 3].map((n) => ids.slice(n * 5, n * 5 + 5));
    const answers = await Promise.all(batches.map(issueBatch));
    expect(answers.flatMap((answer) => answer.batchItemFailures)).toEqual([]);

    const numbers = await Promise.all(ids.map(async (id) => (await invoiceOf(id))!.number));
    // As a list of orders reads them (one BatchGetItem): the same numbers.
    expect([...(await invoiceNumbersOf(ids)).values()]).toEqual(numbers);
    // Each order in its id's series; each series' numbers follow its last before, none twice, none skipped.
    const counts = Array.from({ length: SERIES }, () => 0);
    for (const [at, id] of ids.entries()) {
      const series = seriesOf(id, SERIES);
      counts[series]! += 1;
      expect(numbers[at]!.split('-')[1]).toBe(letterOf(series));
    }
    expect(counts.filter((count) => count > 0).length).toBeGreaterThan(1);
    for (let series = 0; series < SERIES; series++) {
      const ofSeries = numbers.filter((number) => number.split('-')[1] === letterOf(series)).map(sequenceOf);
      expect(ofSeries.sort((a, b) => a - b)).toEqual(
        Array.from({ length: counts[series]! }, (_, n) => before[series]! + 1 + n),
      );
    }
    const after = await lasts();
    expect(after).toEqual(before.map((last, series) => last + counts[series]!));

    // Redelivered: the orders are issued and invoiced already; nothing is numbered again.
    const { result: again, writes } = await countWrites(() => issueBatch(ids));
    expect(again.batchItemFailures).toEqual([]);
    expect(writes.items).toEqual([]);
    expect(await lasts()).toEqual(after);
    for (const id of ids) expect(await readOrderDocuments(id)).toHaveLength(1);
    // Twenty checkouts paid through the stand-in on a machine the whole suite shares: more than a test's usual 20 s.
  }, 90_000);
});

describe('credit notes', () => {
  it("a part's cancel credits its ticket and its fee, the whole cancel the rest; each names the invoice, the totals net to 0", async () => {
    const bought = await paidOrder();
    const order = (await getOrder(Number(bought.orderId)))!;
    const invoice = (await invoiceOf(bought.orderId))!;
    const part = await call('POST', `${ORDERS}/${bought.orderId}/cancel`, {
      token: staff,
      body: { ticketIds: [String(order.ticketIds[0])] },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(part.status, part.raw).toBe(200);
    const afterPart = await call('GET', `${ORDERS}/${bought.orderId}/invoices`, { token: staff });
    expect(afterPart.body.data).toHaveLength(2);
    const [, note] = afterPart.body.data;
    // One ticket: EUR 121, and its half of the fee with its tax, 1.21.
    expect(note).toMatchObject({ kind: 'credit_note', total: -122.21, currency: 'EUR', corrects: invoice.number });
    expect(sequenceOf(note.number)).toBe(sequenceOf(invoice.number) + 1);

    const { result: rest, writes } = await countWrites(() =>
      call('POST', `${ORDERS}/${bought.orderId}/cancel`, {
        token: staff,
        body: {},
        headers: { 'idempotency-key': crypto.randomUUID() },
      }),
    );
    expect(rest.status, rest.raw).toBe(200);
    // The rest's credit note: its item (2 units, within 1 KB) and its series' counter (2), in one transaction.
    const numbering = writes.items.filter((write) => /DOCUMENT#|^INVOICE_NUMBERS#/.test(write.key));
    expect(numbering.map(({ key, units }) => [key.split(' ')[1]!.replace(/\d+/g, 'n'), units]).sort()).toEqual([
      ['DOCUMENT#CREDIT#REST', 2],
      ['YEAR#n', 2],
    ]);
    const documents = await readOrderDocuments(Number(bought.orderId));
    expect(documents.map((document) => document.kind)).toEqual(['invoice', 'credit_note', 'credit_note']);
    const totals = documents.map((document) => document.lines.reduce((sum, line) => sum + line.gross, 0));
    expect(totals).toEqual([24442, -12221, -12221]);
    expect(documents.flatMap((document) => document.lines).reduce((sum, line) => sum + line.tax, 0)).toBe(0);

    const pdf = await call('GET', `${ORDERS}/${bought.orderId}/invoices/${note.number}`, { token: staff });
    expect(pdf.status, pdf.raw).toBe(200);
    const { text } = await parsed(pdf.bytes);
    expect(text).toEqual(expect.arrayContaining([`Credit note ${note.number}`, `Corrects invoice ${invoice.number}`]));
  });
});

describe("staff's reads", () => {
  it("are 404 to an administrator outside the order's event, and for a number not of the order", async () => {
    const bought = await paidOrder({ quantity: 1 });
    const invoice = (await invoiceOf(bought.orderId))!;
    const scoped = await adminToken(['orders:read'], 999_662, { eventScope: [bought.eventId + 1_000_000] });
    for (const path of [
      `${ORDERS}/${bought.orderId}/invoices`,
      `${ORDERS}/${bought.orderId}/invoices/${invoice.number}`,
    ]) {
      const outside = await call('GET', path, { token: scoped });
      expect(outside.status, outside.raw).toBe(404);
    }
    const within = await adminToken(['orders:read'], 999_663, { eventScope: [bought.eventId] });
    expect((await call('GET', `${ORDERS}/${bought.orderId}/invoices`, { token: within })).status).toBe(200);
    const unknown = await call('GET', `${ORDERS}/${bought.orderId}/invoices/1999-A-000001`, { token: staff });
    expect(unknown.status, unknown.raw).toBe(404);
    const malformed = await call('GET', `${ORDERS}/${bought.orderId}/invoices/not-a-number`, { token: staff });
    expect(malformed.status, malformed.raw).toBe(400);
  });
});
