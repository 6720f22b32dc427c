import * as z from '#shared/schema';
import { DataAnswer } from '#shared/http/answers';
import { dataOnly } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { OrderDocumentResource } from '#shared/selling/contract/invoices';
import { listOrderDocuments } from '#shared/selling/use-cases/invoice-list';

/** The order's invoice and credit notes, oldest first (all of them: an order has its invoice and a note per cancel). */
export const handler = route('GET /orders/{id}/invoices', { path: PathId }, async ({ path, caller }) =>
  dataOnly(await listOrderDocuments(caller, path.id)),
);

export const answer = () => DataAnswer(z.array(OrderDocumentResource));
