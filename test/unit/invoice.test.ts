import { describe, expect, it } from 'vitest';
import {
  documentNumber,
  MAX_INVOICE_SERIES,
  type InvoiceDocument,
  invoiceLines,
  partCreditLines,
  rateTotals,
  restCreditLines,
  sellerKey,
  type SoldTicket,
} from '#shared/selling/domain/invoice';
import type { TaxRule } from '#shared/selling/domain/pricing-schemas';
import { priceSale, ticketPrices } from '#shared/selling/domain/sale-prices';

/**
 * An invoice's lines from what a sale stored (shared/README.md "Invoices"): priced by the pricing's one rule
 * (sale-prices.ts), split over the tickets as issued, then read back per type, fee and shipping: the lines' taxes add
 * up to the order's `tax` and their amounts to its `total`, exactly, whatever the shipping's and fee's rules.
 */
const vat = (rate: number, inclusive = true): TaxRule => ({ name: 'VAT', rate, inclusive });
const SELLER = { name: 'Seller', address: 'Street 1', taxId: 'NL1' };

/** A sale priced, its tickets as issued, and the invoice's lines read from them. */
function invoiced(sale: {
  lines: { typeId: number; quantity: number }[];
  prices: Record<number, { price: number; tax?: TaxRule }>;
  bookingFee?: { perTicket?: number; percent?: number };
  feeTax?: TaxRule;
  shippingTax?: TaxRule;
  shipping?: number;
}) {
  const currency = 'EUR';
  const types = new Map(Object.entries(sale.prices).map(([id, type]) => [Number(id), { name: `Type ${id}`, ...type }]));
  const event = { bookingFee: sale.bookingFee, feeTax: sale.feeTax, shippingTax: sale.shippingTax };
  const priced = priceSale({ lines: sale.lines, types, event, currency, shipping: sale.shipping ?? 0 });
  const tickets: SoldTicket[] = priced.lines.flatMap((line) =>
    ticketPrices(line, currency).map((share) => ({ typeId: line.typeId, ...share })),
  );
  const lines = invoiceLines({ currency, tickets, types, ...event, amounts: priced.amounts });
  return { lines, amounts: priced.amounts, tickets, types };
}

const cents = (amount: number) => Math.round(amount * 100);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('an invoice read from a sale', () => {
  it.each([
    ['inclusive shipping tax', vat(21), vat(9)],
    ['added shipping tax', vat(21, false), vat(19, false)],
    ['untaxed shipping', vat(21), undefined],
  ])('adds up to the order with a fee and %s', (_, feeTax, shippingTax) => {
    const { lines, amounts } = invoiced({
      lines: [
        { typeId: 1, quantity: 3 },
        { typeId: 2, quantity: 1 },
      ],
      prices: { 1: { price: 33.33, tax: vat(9) }, 2: { price: 10, tax: vat(21, false) } },
      bookingFee: { perTicket: 0.99, percent: 2.5 },
      feeTax,
      shippingTax,
      shipping: 4.95,
    });
    expect(sum(lines.map((line) => line.gross))).toBe(cents(amounts.total));
    expect(sum(lines.map((line) => line.tax))).toBe(cents(amounts.tax));
    expect(lines.map((line) => line.key)).toEqual(['type:1', 'type:2', 'fee', 'shipping']);
    const rates = rateTotals(lines);
    expect(sum(rates.map((rate) => rate.gross))).toBe(sum(lines.filter((line) => line.rate).map((line) => line.gross)));
    for (const rate of rates) expect(rate.net + rate.tax).toBe(rate.gross);
  });

  it('credits a part and then the rest: the credit notes take back exactly what the invoice charged', () => {
    const { lines, tickets, types } = invoiced({
      lines: [{ typeId: 1, quantity: 3 }],
      prices: { 1: { price: 10, tax: vat(21) } },
      bookingFee: { perTicket: 1 },
      feeTax: vat(21, false),
      shipping: 5,
    });
    const invoice: InvoiceDocument = {
      number: documentNumber(2027, 0, 42),
      kind: 'invoice',
      orderId: 1,
      issuedAt: '2027-01-01T00:00:00.000Z',
      currency: 'EUR',
      seller: SELLER,
      buyer: { name: 'B', email: 'b@example.com' },
      lines,
    };
    const part = partCreditLines(invoice, { tickets: tickets.slice(0, 1), types });
    expect(part.find((line) => line.key === 'type:1')).toMatchObject({ quantity: 1, gross: -1000 });
    expect(part.find((line) => line.key === 'fee')).toMatchObject({ gross: -121, tax: -21 });
    const note = { ...invoice, kind: 'credit_note' as const, lines: part };
    const rest = restCreditLines(invoice, [note]);
    expect(rest.find((line) => line.key === 'type:1')).toMatchObject({ quantity: 2, gross: -2000 });
    expect(rest.find((line) => line.key === 'shipping')).toMatchObject({ gross: -500 });
    for (const key of ['type:1', 'fee', 'shipping']) {
      const of = (each: typeof lines) => sum(each.filter((line) => line.key === key).map((line) => line.gross));
      expect(of(lines) + of(part) + of(rest)).toBe(0);
    }
  });
});

describe('numbers and sellers', () => {
  it('prints the year, the series as a letter (A the first) and six digits at least', () => {
    expect(documentNumber(2027, 0, 42)).toBe('2027-A-000042');
    expect(documentNumber(2027, 2, 1234567)).toBe('2027-C-1234567');
    expect(documentNumber(2027, MAX_INVOICE_SERIES - 1, 1)).toBe('2027-Z-000001');
  });

  it('keys a seller by its tax id, else its name, in letters and digits: a new address keeps its numbers', () => {
    expect(sellerKey({ ...SELLER, taxId: 'nl 123.456 b01' })).toBe('NL_123_456_B01');
    expect(sellerKey({ ...SELLER, taxId: '', name: 'Canal Races' })).toBe('CANAL_RACES');
    expect(sellerKey({ ...SELLER, address: 'elsewhere' })).toBe(sellerKey(SELLER));
  });
});
