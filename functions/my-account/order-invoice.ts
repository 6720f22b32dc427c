import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { myInvoicePdf } from '#shared/selling/use-cases/invoice-reads';

/** The caller's own order's invoice as a one-page PDF (the confirmation mail links here). */
export const handler = route(
  'GET /my-account/orders/{id}/invoice',
  { path: PathId, binary: 'application/pdf' },
  async ({ path, caller }) => {
    const { fileName, pdf } = await myInvoicePdf(caller.id, path.id);
    return {
      binary: { contentType: 'application/pdf', bytes: pdf },
      headers: { 'Content-Disposition': `inline; filename="${fileName}"` },
    };
  },
);
