import { route } from '#shared/http/route';
import { PathOrderDocument } from '#shared/selling/contract/invoices';
import { orderDocumentPdf } from '#shared/selling/use-cases/invoice-reads';

/** One of the order's documents (its invoice or a credit note) as a one-page PDF, shown in the browser. */
export const handler = route(
  'GET /orders/{id}/invoices/{number}',
  { path: PathOrderDocument, binary: 'application/pdf' },
  async ({ path, caller }) => {
    const { fileName, pdf } = await orderDocumentPdf(caller, path.id, path.number);
    return {
      binary: { contentType: 'application/pdf', bytes: pdf },
      headers: { 'Content-Disposition': `inline; filename="${fileName}"` },
    };
  },
);
