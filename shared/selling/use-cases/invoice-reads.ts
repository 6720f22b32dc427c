import { Conflict, NotFound } from '../../errors.ts';
import { getOrder } from '../data/orders.ts';
import { readOrderDocuments } from '../data/invoices.ts';
import type { InvoiceDocument } from '../domain/invoice.ts';
import { drawInvoice, invoiceFileName } from '../domain/invoice-pdf.ts';
import { type Caller, orderFor } from './order-reads.ts';

/**
 * The invoices' and credit notes' reads (shared/README.md "Invoices"): staff's list and PDFs of an order within their
 * events (another event's order is a 404, as `GET /orders/{id}`), the buyer's own invoice. The PDF is drawn here, on
 * read, from the stored document: nothing on the sale's path reaches this module, nor the documents' list
 * (invoice-list.ts), which draws none.
 */

export interface DocumentFile {
  fileName: string;
  pdf: Uint8Array;
}

const asFile = async (document: InvoiceDocument): Promise<DocumentFile> => ({
  fileName: invoiceFileName(document),
  pdf: await drawInvoice(document),
});

/** `GET /orders/{id}/invoices/{number}`: one of the order's documents as a PDF; a number not of this order is a 404. */
export async function orderDocumentPdf(caller: Caller, orderId: number, number: string): Promise<DocumentFile> {
  await orderFor(caller, orderId);
  const document = (await readOrderDocuments(orderId)).find((each) => each.number === number);
  if (!document) throw new NotFound(`Order ${orderId}'s document`, number);
  return asFile(document);
}

/**
 * `GET /my-account/orders/{id}/invoice`: the caller's own order's invoice. Another customer's order and a missing one
 * are the same 404; the caller's order without an invoice (not paid yet, still being issued, or free) is 409
 * `not_invoiced`: it exists, and the answer says when it will have one.
 */
export async function myInvoicePdf(customerId: number, orderId: number): Promise<DocumentFile> {
  const order = await getOrder(orderId);
  if (!order || order.customerId !== customerId) throw new NotFound('Order', orderId);
  const invoice = (await readOrderDocuments(orderId)).find((document) => document.kind === 'invoice');
  if (!invoice)
    throw new Conflict(
      `Order ${orderId} has no invoice: an order is invoiced once it is paid and its tickets issued (a free order has none).`,
      'not_invoiced',
      { orderStatus: order.status },
    );
  return asFile(invoice);
}
