import { readOrderDocuments } from '../data/invoices.ts';
import { documentEntry } from '../domain/invoice.ts';
import { type Caller, orderFor } from './order-reads.ts';

/**
 * `GET /orders/{id}/invoices`: the order's documents, oldest first (one Query of the order's partition). Apart from
 * the PDFs (invoice-reads.ts), so the list's function loads no PDF writer.
 */
export async function listOrderDocuments(caller: Caller, orderId: number) {
  await orderFor(caller, orderId);
  return (await readOrderDocuments(orderId)).map(documentEntry);
}
