import { describe, expect, it } from 'vitest';
import { cancellationOutcome, deskRefund, refundsDue, replacementIds } from '#shared/selling/domain/order-cancel';
import type { OrderTransaction } from '#shared/selling/domain/order';
import type { TicketRecord } from '#shared/tickets/domain/ticket';

/** What a cancellation refunds (selling/domain/order-cancel.ts): per processor, payments less refunds; comp nothing. */
const at = '2030-01-01T00:00:00.000Z';
const paid = (processor: string, amount: number, reference = `${processor}-${amount}`): OrderTransaction => ({
  amount,
  processor,
  reference,
  time: at,
});

describe('refundsDue', () => {
  it('is each processor’s payments less its refunds, naming the latest payment', () => {
    expect(refundsDue({ transactions: [paid('stripe', 25, 'pi_1')] })).toEqual([
      { processor: 'stripe', amount: 25, paymentReference: 'pi_1' },
    ]);
    expect(
      refundsDue({ transactions: [paid('stripe', 25, 'pi_1'), paid('stripe', -10, 're_1'), paid('cash', 5.1)] }),
    ).toEqual([
      { processor: 'stripe', amount: 15, paymentReference: 'pi_1' },
      { processor: 'cash', amount: 5.1, paymentReference: 'cash-5.1' },
    ]);
  });

  it('is nothing once refunded in full, for comp, or without a payment', () => {
    expect(refundsDue({ transactions: [paid('stripe', 12.3, 'pi_1'), paid('stripe', -12.3, 're_1')] })).toEqual([]);
    expect(refundsDue({ transactions: [paid('comp', 0)] })).toEqual([]);
    expect(refundsDue({ transactions: [] })).toEqual([]);
  });

  it('sums in whole cents', () => {
    const transactions = [paid('cash', 0.1), paid('cash', 0.2), paid('cash', -0.3, 'back')];
    expect(refundsDue({ transactions })).toEqual([]);
  });
});

describe('the outcome and the desk refund', () => {
  it('ends refunded when a payment was ever taken, refunded since or not', () => {
    expect(cancellationOutcome({ transactions: [paid('stripe', 20), paid('stripe', -20, 're_1')] })).toBe('refunded');
    expect(cancellationOutcome({ transactions: [paid('comp', 0)] })).toBe('cancelled');
  });

  it('records the desk refund once per order and processor', () => {
    expect(deskRefund(7, { processor: 'card_present', amount: 30, paymentReference: 'x' }, at)).toEqual({
      amount: -30,
      processor: 'card_present',
      reference: 'order-7-refund-card_present',
      time: at,
    });
  });
});

describe('replacementIds', () => {
  const ticket = (id: number, transferredTo: number | null) =>
    ({ id, transferState: transferredTo ? 'transferred' : 'none', transferredTo }) as Pick<
      TicketRecord,
      'id' | 'transferState' | 'transferredTo'
    > as TicketRecord;

  it('names the replacements of transferred tickets not seen yet', () => {
    expect(replacementIds([ticket(1, 5), ticket(2, null), ticket(3, 1)], new Set([1, 2, 3]))).toEqual([5]);
  });
});
