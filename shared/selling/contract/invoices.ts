/**
 * The contract of an order's invoices and credit notes (`/orders/{id}/invoices…`, `/my-account/orders/{id}/invoice`):
 * the list's entry and the paths. The documents themselves are PDFs (shared/selling/domain/invoice-pdf.ts).
 */
import * as z from '../../schema.ts';
import { wholeNumber } from '../../request-fields.ts';
import { DOCUMENT_KINDS } from '../domain/invoice.ts';

/**
 * A document's number as an invoice prints it: `2027-C-000042` (year, series, sequence). A document numbered before
 * the series (`2027-000042`) keeps its number and stays readable.
 */
const DOCUMENT_NUMBER = /^\d{4}-(?:[A-Z]-)?\d{6,}$/;

export const OrderDocumentResource = z.lazy(() =>
  z
    .strictObject({
      number: z
        .string()
        .check(
          z.describe(
            "Unique per seller: `<year>-<series>-<six digits>`, e.g. `2027-C-000042`, gapless within its series (one letter each, A the first; an order's series is fixed by its id).",
          ),
        ),
      kind: z.enum(DOCUMENT_KINDS),
      issuedAt: z.iso.datetime(),
      total: z
        .number()
        .check(z.describe("In the order's currency, major units: what it charges; a credit note's is negative.")),
      currency: z.string(),
      corrects: z.optional(z.string().check(z.describe("A credit note's: the invoice's number it corrects."))),
    })
    .check(z.describe("An order's invoice or credit note, as listed (its PDF: `GET /orders/{id}/invoices/{number}`).")),
);

/** `{id}` and `{number}`. */
export const PathOrderDocument = z.lazy(() =>
  z.strictObject({
    id: wholeNumber('id', { positive: true }),
    number: z
      .string()
      .check(z.regex(DOCUMENT_NUMBER, 'must be a document number such as 2027-C-000042'), z.maxLength(20)),
  }),
);
