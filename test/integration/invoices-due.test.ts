import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { INVOICE_DUE_SHARDS } from '#shared/selling/data/invoices-due';
import { readLastNumber, readOrderDocuments } from '#shared/selling/data/invoices';
import { sellerKey } from '#shared/selling/domain/invoice';
import { numberInvoicesDue } from '#shared/selling/use-cases/invoices-due';
import { runAs } from '../../bin/local/invoke.ts';
import { countWrites, storedItem } from '../support/dynamo-writes.ts';
import { clearFaults, failCalls, failures } from '../support/faults.ts';
import { checkedOut, payAsBrowser } from '../support/paid-checkout.ts';
import { claimedThenIssued, handToConsumer } from '../support/paid-order-issuing.ts';
import { type StandInKeys, standInKeys, type WebhookRelay, webhookRelay } from '../support/stripe.ts';

/**
 * A paid order whose invoicing fails is numbered later, never lost (shared/README.md "Invoices"): the issuing consumer
 * files it as due and answers its batch done (its tickets issued, nothing retried for the invoice); the every-minute
 * job numbers it once the fault is gone, in its seller's gapless series, and deletes the entry; a failure of the job's
 * own try leaves it due. Only when the filing fails too is the batch retried. This file's orders name a seller of
 * their own, in one series, so their numbers are this file's alone.
 */
const SELLER = {
  name: 'Due Invoices Ltd',
  address: '1 Quay Street, Dublin, IE',
  taxId: `IE${String(Date.now()).slice(-8)}`,
};
const TAXED = {
  tax: { name: 'VAT', rate: 21, inclusive: true },
  seller: SELLER,
};
/** The invoice numbering's transaction: the one that moves a seller's series' counter. */
const numbering = (input: Record<string, any>) => JSON.stringify(input).includes('INVOICE_NUMBERS#');
/** An invoice-due entry's put. */
const filing = (input: Record<string, any>) => JSON.stringify(input).includes('INVOICE_DUE#');

let stripe: StandInKeys;
let relay: WebhookRelay;
let seriesBefore: string | undefined;

beforeAll(async () => {
  seriesBefore = process.env.INVOICE_SERIES;
  process.env.INVOICE_SERIES = '1';
  stripe = await standInKeys();
  relay = await webhookRelay();
});
afterAll(() => {
  process.env.INVOICE_SERIES = seriesBefore;
  return relay.close();
});
afterEach(() => clearFaults());

async function paidNotIssued() {
  const bought = await checkedOut(stripe, relay, { quantity: 1, price: 121, pricing: TAXED });
  await payAsBrowser(stripe, bought.intent);
  return Number(bought.orderId);
}

const lastNumber = () => readLastNumber({ seller: sellerKey(SELLER), year: new Date().getUTCFullYear(), series: 0 });
const dueEntryOf = (orderId: number) => storedItem(keys.invoiceDue(orderId % INVOICE_DUE_SHARDS, orderId));
const runJob = () => runAs('release-reservations', () => numberInvoicesDue(50_000));

describe('a paid order whose invoicing fails', () => {
  it('is filed as due by the consumer, stays due while the job fails too, then is numbered next in its series, once', async () => {
    const before = await lastNumber();
    const orderId = await paidNotIssued();
    const fault = failCalls(db, {
      commands: ['TransactWriteItemsCommand'],
      when: numbering,
      error: failures.dynamoInternal,
    });

    expect((await handToConsumer(orderId)).batchItemFailures).toEqual([]);
    expect(fault.attempts).toBeGreaterThan(0);
    expect(await readOrderDocuments(orderId)).toEqual([]);
    expect(await dueEntryOf(orderId)).toMatchObject({ entity: 'InvoiceDue', orderId });

    // The job's own try fails while the fault lasts: the order stays due, no number is taken.
    const failing = await runJob();
    expect(failing.stillDue).toBeGreaterThanOrEqual(1);
    expect(await dueEntryOf(orderId)).toBeDefined();
    expect(await lastNumber()).toBe(before);

    await clearFaults();
    const recovered = await runJob();
    expect(recovered.numbered).toBeGreaterThanOrEqual(1);
    const [invoice] = await readOrderDocuments(orderId);
    expect(invoice).toMatchObject({ kind: 'invoice', seller: SELLER });
    expect(invoice!.number).toBe(`${new Date().getUTCFullYear()}-A-${String(before + 1).padStart(6, '0')}`);
    expect(await dueEntryOf(orderId)).toBeUndefined();
    expect(await lastNumber()).toBe(before + 1);

    // Nothing is due any more: the next run writes nothing, and the consumer handed the order again neither.
    const { writes } = await countWrites(async () => {
      await runJob();
      await handToConsumer(orderId);
    });
    expect(writes.items).toEqual([]);
    expect(await readOrderDocuments(orderId)).toHaveLength(1);

    // The next paid order takes the next number: no gap, none twice.
    const next = await paidNotIssued();
    expect((await claimedThenIssued(next)).status).toBe('active');
    expect((await readOrderDocuments(next))[0]!.number).toBe(
      `${new Date().getUTCFullYear()}-A-${String(before + 2).padStart(6, '0')}`,
    );
  }, 60_000);

  it('has its batch retried when it cannot be filed as due either, and is numbered by the retry', async () => {
    const before = await lastNumber();
    const orderId = await paidNotIssued();
    failCalls(db, { commands: ['TransactWriteItemsCommand'], when: numbering, error: failures.dynamoInternal });
    failCalls(db, { commands: ['PutCommand', 'PutItemCommand'], when: filing, error: failures.dynamoInternal });

    expect((await handToConsumer(orderId)).batchItemFailures).toEqual([{ itemIdentifier: String(orderId) }]);
    expect(await dueEntryOf(orderId)).toBeUndefined();
    expect(await readOrderDocuments(orderId)).toEqual([]);

    await clearFaults();
    expect((await handToConsumer(orderId)).batchItemFailures).toEqual([]);
    expect((await readOrderDocuments(orderId))[0]!.number).toBe(
      `${new Date().getUTCFullYear()}-A-${String(before + 1).padStart(6, '0')}`,
    );
  }, 60_000);

  it('is read by the job one bounded Query a shard', async () => {
    const fault = failCalls(db, {
      commands: ['QueryCommand'],
      when: (input) => JSON.stringify(input).includes('INVOICE_DUE#'),
      times: 0,
      error: () => new Error('never'),
    });
    await runJob();
    expect(fault.inputs).toHaveLength(INVOICE_DUE_SHARDS);
    for (const input of fault.inputs) expect(input.Limit).toBeGreaterThan(0);
  });
});
