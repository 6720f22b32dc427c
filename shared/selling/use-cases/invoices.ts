import { now } from '../../clock.ts';
import { MAX_TRANSACTION_ITEMS } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';
import { readDecideWrite } from '../../data/read-decide-write.ts';
import { getEvent, listTicketTypes } from '../../events/data/events.ts';
import { type Event, saleCurrency, type TicketType } from '../../events/domain/event.ts';
import { readTicketRecords } from '../../tickets/data/ticket-records.ts';
import { getOrder } from '../data/orders.ts';
import {
  commitNumbered,
  INVOICE,
  type NumberedDocument,
  type NumberSeries,
  readLastNumber,
  readOrderDocuments,
  storedDocuments,
} from '../data/invoices.ts';
import {
  type DocumentDraft,
  documentNumber,
  type InvoiceDocument,
  invoiceLines,
  partCreditLines,
  restCreditLines,
  sellerKey,
  type SoldTicket,
  seriesOf,
} from '../domain/invoice.ts';
import type { Order, PartCancellation } from '../domain/order.ts';
import { invoiceSeries, stageSeller } from '../services/invoice-seller.ts';

/**
 * Invoices and credit notes are numbered here (shared/README.md "Invoices"). The rule: a seller's numbers of a year
 * run in several series (an order's fixed by its id), each gapless and given only with its documents, in one
 * transaction (data/invoices.ts `commitNumbered`); a paid order's invoice when its tickets are issued (the issuing
 * consumer numbers its batch's orders of one series together: one counter write per series of the batch, not per
 * order), a credit note when a cancel refunds. The series spread the counters' writes: one item takes only so many
 * transactions a second.
 */

/** Documents one transaction numbers: DynamoDB's 100 actions, less the counter's. */
export const DOCUMENTS_PER_TRANSACTION = MAX_TRANSACTION_ITEMS - 1;

/** What is invoiced: an order paid, its tickets issued, something charged (a free or comp order has no invoice). */
const toInvoice = (order: Order | undefined): order is Order => order?.status === 'active' && order.grandTotal > 0;

/**
 * The invoices of these orders (the issuing consumer's batch, a box-office sale), each order once: an order already
 * invoiced, not active or free is skipped, so a batch handed over again writes nothing. Numbered per seller, year and
 * series, DOCUMENTS_PER_TRANSACTION at a time.
 */
export async function invoicePaidOrders(orderIds: readonly number[]): Promise<void> {
  const orders = (await Promise.all(orderIds.map((id) => getOrder(id)))).filter(toInvoice);
  if (!orders.length) return;
  const invoiced = await storedDocuments(orders.map((order) => ({ orderId: order.id, name: INVOICE })));
  const drafts = await draftsOf(orders.filter((_, at) => !invoiced[at]));
  const bySeries = new Map<string, Draft[]>();
  for (const draft of drafts) {
    const group = `${sellerKey(draft.seller)}#${seriesOf(draft.orderId, invoiceSeries())}`;
    bySeries.set(group, [...(bySeries.get(group) ?? []), { name: INVOICE, draft }]);
  }
  // Each series its own transactions: they write different counters, so they need not wait for each other. All
  // settle before a failure is thrown, so none is still writing when the caller's retry reads what was numbered.
  const settled = await Promise.allSettled(
    [...bySeries.values()].map(async (ofSeries) => {
      for (let start = 0; start < ofSeries.length; start += DOCUMENTS_PER_TRANSACTION)
        await numberDocuments(ofSeries.slice(start, start + DOCUMENTS_PER_TRANSACTION));
    }),
  );
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/** The orders' invoices as drafts; a batch's orders are mostly of one event: its event and types read once for all. */
function draftsOf(orders: readonly Order[]): Promise<DocumentDraft[]> {
  const sales = new Map<number, Promise<[Event, TicketType[]]>>();
  const saleOf = (eventId: number) => {
    if (!sales.has(eventId)) sales.set(eventId, Promise.all([getEvent(eventId), listTicketTypes(eventId)]));
    return sales.get(eventId)!;
  };
  return Promise.all(orders.map(async (order) => invoiceDraft(order, ...(await saleOf(order.eventId)))));
}

/** A paid order's invoice as it will be numbered: its event's seller (else the stage's), its buyer, its tickets' lines. */
async function invoiceDraft(order: Order, event: Event, types: TicketType[]): Promise<DocumentDraft> {
  const tickets = await readTicketRecords(order.ticketIds);
  const currency = order.amounts?.currency ?? order.checkout?.currency ?? saleCurrency(event);
  return {
    kind: 'invoice',
    orderId: order.id,
    currency,
    seller: event.seller ?? stageSeller(),
    buyer: { name: order.purchaser, email: order.emailAddress, ...order.billing },
    lines: invoiceLines({
      currency,
      tickets: [...tickets.values()] as SoldTicket[],
      types: new Map(types.map((type) => [type.id, type])),
      feeTax: event.feeTax,
      shippingTax: event.shippingTax,
      amounts: order.amounts,
    }),
  };
}

interface Draft {
  name: string;
  draft: DocumentDraft;
}

/**
 * Drafts of one seller and series (the caller groups them) numbered in one transaction, conditional on the series'
 * counter as read (through read-decide-write: a concurrent batch that numbered first makes this read again). A draft
 * whose document was stored meanwhile is dropped on the new read: each order's document once.
 */
async function numberDocuments(drafts: readonly Draft[]): Promise<void> {
  const { draft: first } = drafts[0]!;
  const seller = sellerKey(first.seller);
  const series = seriesOf(first.orderId, invoiceSeries());
  await readDecideWrite({
    subject: `Invoice numbers of ${seller}, series ${series}`,
    read: async () => {
      // One instant for the year and the date of issue: a document issued on 1 January carries that year's number.
      const issuedAt = now().toISOString();
      const numbers: NumberSeries = { seller, year: Number(issuedAt.slice(0, 4)), series };
      const [last, stored] = await Promise.all([
        readLastNumber(numbers),
        storedDocuments(drafts.map(({ name, draft }) => ({ orderId: draft.orderId, name }))),
      ]);
      return { numbers, issuedAt, last, left: drafts.filter((_, at) => !stored[at]) };
    },
    decide: ({ numbers, issuedAt, last, left }) => {
      if (!left.length) return { answer: undefined };
      const numbered: NumberedDocument[] = left.map(({ name, draft }, at) => ({
        name,
        document: { ...draft, number: documentNumber(numbers.year, series, last + at + 1), issuedAt },
      }));
      return { write: () => commitNumbered(numbers, last, numbered), answer: undefined };
    },
  });
}

/** A part's credit note's name on its order: the part's place among the order's parts (append-only, so stable). */
const partName = (order: Order, part: PartCancellation): string =>
  keys.documentNames.partCredit(
    Math.max(0, order.partCancellations?.findIndex((each) => each.at === part.at && each.by === part.by) ?? 0),
  );
/** The credit note of what a whole cancel refunded (the order's rest). */
const REST = keys.documentNames.restCredit;

/** A part's cancel, refunded: the credit note of its tickets, once; none when the order has no invoice. */
export async function creditPart(orderId: number, part: PartCancellation): Promise<void> {
  const order = await getOrder(orderId);
  const invoice = order && (await invoiceOf(orderId));
  if (!order || !invoice) return;
  const [types, tickets] = await Promise.all([listTicketTypes(order.eventId), readTicketRecords(part.ticketIds)]);
  const lines = partCreditLines(invoice, {
    tickets: [...tickets.values()] as SoldTicket[],
    types: new Map(types.map((type) => [type.id, type])),
  });
  await numberDocuments([{ name: partName(order, part), draft: creditNote(invoice, lines) }]);
}

/** A whole cancel, refunded: the credit note of what the invoice still charges, once; none without an invoice. */
export async function creditRest(orderId: number): Promise<void> {
  const documents = await readOrderDocuments(orderId);
  const invoice = documents.find((document) => document.kind === 'invoice');
  if (!invoice) return;
  const lines = restCreditLines(
    invoice,
    documents.filter((document) => document.kind === 'credit_note'),
  );
  if (lines.length) await numberDocuments([{ name: REST, draft: creditNote(invoice, lines) }]);
}

const invoiceOf = async (orderId: number): Promise<InvoiceDocument | undefined> =>
  (await readOrderDocuments(orderId)).find((document) => document.kind === 'invoice');

/** A credit note names its invoice and its seller and buyer (the invoice's, as issued). */
const creditNote = (invoice: InvoiceDocument, lines: InvoiceDocument['lines']): DocumentDraft => ({
  kind: 'credit_note',
  orderId: invoice.orderId,
  currency: invoice.currency,
  seller: invoice.seller,
  buyer: invoice.buyer,
  lines,
  corrects: invoice.number,
});
