import { describe, expect, it } from 'vitest';
import { csvField, csvRow } from '#shared/selling/domain/order-csv';
import { salesFigures } from '#shared/selling/domain/sale-figures';
import { addSums, NO_SALES, sumsOf, ticketPrices, ticketSums } from '#shared/selling/domain/sale-prices';

describe("a sold ticket's sales figures", () => {
  it('are what it cost, its taxes (its own and its fee’s), its fee net of tax and its discount', () => {
    expect(ticketSums({ price: 100, taxAmount: 8.88, bookingFee: 1.65, feeTax: 0.15, discount: 15 })).toEqual({
      gross: 110.53,
      tax: 9.03,
      fees: 1.5,
      discount: 15,
    });
    expect(ticketSums({ price: 12.5, taxAmount: 0 })).toEqual({ gross: 12.5, tax: 0, fees: 0, discount: 0 });
  });

  it('add up a line’s shares to the line exactly, and a ticket taken away leaves the others', () => {
    // A stored line of 3 with a discount, a fee and the fee's tax: its shares split by the largest remainder.
    const line = {
      typeId: 1,
      name: 'Runner',
      quantity: 3,
      waveTimeId: null,
      unitPrice: 33.33,
      discount: 10,
      fee: 4.5,
      tax: 8.43,
      feeTax: 0.45,
      feePaid: 4.95,
      amount: 102.94,
    };
    const tickets = ticketPrices(line, 'USD');
    expect(tickets.map((ticket) => ticket.discount)).toEqual([3.34, 3.33, 3.33]);
    const sums = sumsOf(tickets);
    expect(sums).toEqual({ gross: 102.94, tax: 8.43, fees: 4.5, discount: 10 });
    expect(addSums(sums, ticketSums(tickets[0]!), -1)).toEqual(sumsOf(tickets.slice(1)));
  });

  it('are summed over shards in minor units and answered with net = gross − tax', () => {
    const shards = [
      { sold: 2, gross: 0.1, tax: 0.01, fees: 0, discount: 0 },
      { sold: 1, gross: 0.2, tax: 0.02, fees: 0.05, discount: 0.3 },
      { sold: 0, ...NO_SALES },
    ];
    expect(salesFigures(shards, 'EUR')).toEqual({
      sold: 3,
      gross: 0.3,
      net: 0.27,
      tax: 0.03,
      fees: 0.05,
      discount: 0.3,
    });
    expect(salesFigures([{ sold: 1, gross: 1100, tax: 100, fees: 0, discount: 0 }], 'JPY').net).toBe(1000);
  });
});

describe('a CSV field', () => {
  it('is prefixed when a spreadsheet would run it as a formula (OWASP), and quoted per RFC 4180', () => {
    expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', 'plain'].map(csvField)).toEqual([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      'plain',
    ]);
    expect(csvField('Smith, Jr.')).toBe('"Smith, Jr."');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvRow(['a', '=b', 'c,d'])).toBe(`a,'=b,"c,d"\r\n`);
  });
});
