import { describe, expect, it } from 'vitest';
import { newTicketRecord } from '#shared/tickets/domain/new-ticket';
import { replacementTicket } from '#shared/tickets/domain/transfer';

const at = '2026-06-14T07:00:00.000Z';
const sold = {
  ...newTicketRecord(5, { id: 2, eventId: 3, grants: [] }, at),
  orderId: 9,
  price: 8.4,
  taxAmount: 1.6,
  bookingFee: 1.19,
  version: 1,
};

describe("a transfer's replacement ticket (shared/tickets/domain/transfer.ts)", () => {
  it('keeps what the buyer paid for the ticket: its price, its tax and its part of the booking fee', () => {
    const moved = replacementTicket(sold, 6, { id: 4, eventId: 3, grants: [] }, {}, at);
    expect(moved).toMatchObject({ id: 6, typeId: 4, orderId: 9, price: 8.4, taxAmount: 1.6, bookingFee: 1.19 });
    expect(moved.barcode).not.toBe(sold.barcode);
  });

  it('stores no booking fee for a ticket sold without one', () => {
    const { bookingFee: _fee, ...unfeed } = sold;
    expect(replacementTicket(unfeed, 6, { id: 4, eventId: 3, grants: [] }, {}, at)).not.toHaveProperty('bookingFee');
  });
});
