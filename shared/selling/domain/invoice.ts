import { proportionOf, toMajor, toMinor } from '../../money.ts';
import { PERCENT_DECIMALS, type Seller, type TaxRule } from './pricing-schemas.ts';
import { type RateTotal, totalsPerRate } from './pricing.ts';

/**
 * Invoices and credit notes (shared/README.md "Invoices"), pure: what a document says, frozen when it is numbered so
 * the PDF is drawn from it alone, and how its lines and totals per rate come from what the sale stored. Amounts are in
 * the currency's minor units here and in the stored item (integers: exact sums, a smaller item); the API and the PDF
 * show them in major units.
 */

export type { Seller } from './pricing-schemas.ts';

export interface Buyer {
  name: string;
  email: string;
  /** A business buyer's billing details, as the order keeps them (checkout-body.ts `BillingBody`). */
  company?: string;
  taxId?: string;
  address?: string;
}

export const DOCUMENT_KINDS = ['invoice', 'credit_note'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/**
 * One line: a ticket type's tickets, the booking fee or the shipping. `gross` is what the buyer pays for it, `tax` the
 * tax inside `gross` (so net = gross − tax), both negative on a credit note. `key` says what it is (`type:<id>`, `fee`,
 * `shipping`), so a credit note of the rest subtracts what earlier ones credited, line by line.
 */
export interface DocumentLine {
  key: string;
  text: string;
  quantity: number;
  gross: number;
  tax: number;
  /** The tax's name and rate (percent) as the invoice prints them; absent: untaxed. */
  taxName?: string;
  rate?: number;
}

export interface InvoiceDocument {
  /** `2027-C-000042`: the year of issue, the order's series, then the seller's next number of that year in it. */
  number: string;
  kind: DocumentKind;
  orderId: number;
  issuedAt: string;
  currency: string;
  seller: Seller;
  buyer: Buyer;
  lines: DocumentLine[];
  /** A credit note's invoice: the number it corrects. */
  corrects?: string;
}

/** A document before its number: numbering gives it `number` and `issuedAt`. */
export type DocumentDraft = Omit<InvoiceDocument, 'number' | 'issuedAt'>;

/**
 * How many series a seller's numbers of a year may run in: one letter each, A to Z. Several series let numbering
 * transactions write several counters instead of one (EU VAT Directive 2006/112/EC, Art. 226(2): "a sequential
 * number, based on one or more series, which uniquely identifies the invoice").
 */
export const MAX_INVOICE_SERIES = 26;

/** An order's series of `series`: fixed by its id, so a retry, a replay and its credit notes pick the same one. */
export const seriesOf = (orderId: number, series: number): number => orderId % series;

/** The number: the year, the series' letter (A the first), then the series' gapless sequence, six digits at least. */
export const documentNumber = (year: number, series: number, sequence: number): string =>
  `${year}-${String.fromCharCode(65 + series)}-${String(sequence).padStart(6, '0')}`;

/**
 * The counter a seller's numbers come from: its tax id (or, without one, its name), folded to letters and digits. A
 * seller's new address keeps its sequence; a new tax id starts another, as a new legal entity would.
 */
export const sellerKey = (seller: Seller): string =>
  (seller.taxId.trim() || seller.name.trim()).toUpperCase().replace(/[^A-Z0-9]+/g, '_') || 'SELLER';

/** The document's totals per tax rate, from its taxed lines. */
export const rateTotals = (lines: readonly DocumentLine[]): RateTotal[] =>
  totalsPerRate(
    lines.flatMap(({ taxName, rate, gross, tax }) =>
      taxName === undefined || rate === undefined ? [] : [{ name: taxName, rate, gross, tax }],
    ),
  );

export const documentTotal = (document: Pick<InvoiceDocument, 'lines'>): number =>
  document.lines.reduce((sum, line) => sum + line.gross, 0);

/** What `GET /orders/{id}/invoices` lists of a document. */
export const documentEntry = (document: InvoiceDocument) => ({
  number: document.number,
  kind: document.kind,
  issuedAt: document.issuedAt,
  total: toMajor(documentTotal(document), document.currency),
  currency: document.currency,
  ...(document.corrects ? { corrects: document.corrects } : {}),
});

/** A sold ticket as the invoice reads it: its type and its share of the order (major units, as tickets store them). */
export interface SoldTicket {
  typeId: number;
  price: number;
  taxAmount: number;
  bookingFee?: number;
}

export interface SaleToInvoice {
  currency: string;
  tickets: readonly SoldTicket[];
  types: ReadonlyMap<number, { name: string; tax?: TaxRule | null }>;
  feeTax?: TaxRule | null;
  shippingTax?: TaxRule | null;
  /** The order's sums as priced (major units); absent on an order written whole (then no shipping line). */
  amounts?: { shipping: number; tax: number; total: number };
}

const taxOf = (rule: TaxRule | null | undefined) => (rule ? { taxName: rule.name, rate: rule.rate } : {});
/** 100 % in thousandths of a percent, as the pricing computes a tax (pricing.ts). */
const WHOLE = 100 * 10 ** PERCENT_DECIMALS;
const thousandths = (percent: number): number => Math.round(percent * 10 ** PERCENT_DECIMALS);

/** The tax inside `gross` at `rule`'s rate, rounded as the pricing rounds (half away from zero, once). */
const taxInside = (gross: number, rule: TaxRule | null | undefined, currency: string): number =>
  rule ? proportionOf(gross, thousandths(rule.rate), WHOLE + thousandths(rule.rate), currency) : 0;

/** The tickets' lines, one per type in the order first met: their count, what was paid and the tax in it. */
export function ticketLines(sale: Pick<SaleToInvoice, 'currency' | 'tickets' | 'types'>): DocumentLine[] {
  const minor = (major: number) => toMinor(major, sale.currency);
  const lines = new Map<number, DocumentLine>();
  for (const ticket of sale.tickets) {
    const type = sale.types.get(ticket.typeId);
    const line = lines.get(ticket.typeId) ?? {
      key: `type:${ticket.typeId}`,
      text: type?.name ?? `Ticket type ${ticket.typeId}`,
      quantity: 0,
      gross: 0,
      tax: 0,
      ...taxOf(type?.tax),
    };
    line.quantity += 1;
    line.gross += minor(ticket.price) + minor(ticket.taxAmount);
    line.tax += minor(ticket.taxAmount);
    lines.set(ticket.typeId, line);
  }
  return [...lines.values()];
}

/**
 * A paid order's lines: its tickets per type, the booking fee and the shipping, each with its tax. The tickets carry
 * their own tax; the shipping's is what its rule gives on what was paid for it (the order's total less the tickets and
 * fees), and the fee's the rest of the order's `tax`, so the lines' taxes add up to the order's exactly.
 */
export function invoiceLines(sale: SaleToInvoice): DocumentLine[] {
  const { currency } = sale;
  const minor = (major: number) => toMinor(major, currency);
  const tickets = ticketLines(sale);
  const feeGross = sale.tickets.reduce((sum, ticket) => sum + minor(ticket.bookingFee ?? 0), 0);
  const ticketsGross = tickets.reduce((sum, line) => sum + line.gross, 0);
  const ticketsTax = tickets.reduce((sum, line) => sum + line.tax, 0);
  const shippingGross = sale.amounts ? minor(sale.amounts.total) - ticketsGross - feeGross : 0;
  const shippingTax = !sale.shippingTax
    ? 0
    : sale.shippingTax.inclusive
      ? taxInside(shippingGross, sale.shippingTax, currency)
      : shippingGross - minor(sale.amounts?.shipping ?? 0);
  const feeTax = sale.amounts
    ? Math.max(0, minor(sale.amounts.tax) - ticketsTax - shippingTax)
    : taxInside(feeGross, sale.feeTax, currency);
  const fee = { key: 'fee', text: 'Booking fee', quantity: 1, gross: feeGross, tax: feeTax, ...taxOf(sale.feeTax) };
  const shipping = {
    key: 'shipping',
    text: 'Shipping',
    quantity: 1,
    gross: shippingGross,
    tax: shippingTax,
    ...taxOf(sale.shippingTax),
  };
  return [...tickets, ...(feeGross ? [fee] : []), ...(shippingGross > 0 ? [shipping] : [])];
}

const negated = (line: DocumentLine): DocumentLine => ({ ...line, gross: -line.gross, tax: -line.tax });

/**
 * A part's credit note's lines: its tickets per type and their part of the booking fee (its tax the invoice fee
 * line's in proportion), negative. The shipping stays with the order until the rest is credited.
 */
export function partCreditLines(
  invoice: Pick<InvoiceDocument, 'lines' | 'currency'>,
  part: Pick<SaleToInvoice, 'tickets' | 'types'>,
): DocumentLine[] {
  const { currency } = invoice;
  const tickets = ticketLines({ currency, ...part });
  const invoiceFee = invoice.lines.find((line) => line.key === 'fee');
  const feeGross = part.tickets.reduce((sum, ticket) => sum + toMinor(ticket.bookingFee ?? 0, currency), 0);
  const fee =
    invoiceFee && feeGross
      ? [{ ...invoiceFee, gross: feeGross, tax: proportionOf(invoiceFee.tax, feeGross, invoiceFee.gross, currency) }]
      : [];
  return [...tickets, ...fee].map(negated);
}

/** The credit note of what is left: the invoice's lines less what earlier credit notes credited, negative. */
export function restCreditLines(invoice: InvoiceDocument, credited: readonly InvoiceDocument[]): DocumentLine[] {
  const left = new Map(invoice.lines.map((line) => [line.key, { ...line }]));
  for (const line of credited.flatMap((note) => note.lines)) {
    const entry = left.get(line.key);
    if (!entry) continue;
    // A credit note's lines are negative: adding them takes what they credited off the invoice's.
    entry.gross += line.gross;
    entry.tax += line.tax;
    entry.quantity -= line.quantity;
  }
  return [...left.values()].filter((line) => line.gross !== 0).map(negated);
}
