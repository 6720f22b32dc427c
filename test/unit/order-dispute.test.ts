import { describe, expect, it } from 'vitest';
import { cancellationOutcome, cancellationRefunds, chargedBackPayment } from '#shared/selling/domain/order-cancel';
import type { OrderTransaction } from '#shared/selling/domain/order';
import {
  disputeSequence,
  disputeState,
  failedRefundReference,
  isChargeback,
  type OrderDispute,
  refundFailures,
} from '#shared/selling/domain/order-dispute';

/** The rules of an order's dispute and of a refund that failed later (selling/domain/order-dispute.ts). */
const at = '2030-01-01T00:00:00.000Z';
const transaction = (amount: number, reference: string, processor = 'stripe'): OrderTransaction => ({
  amount,
  processor,
  reference,
  time: at,
});
const dispute = (status: string): OrderDispute => ({
  id: 'dp_1',
  status,
  reason: 'fraudulent',
  amount: 25,
  currency: 'EUR',
  updatedAt: at,
});

describe('disputeSequence', () => {
  it('orders events by their second first, then by how far on the status is', () => {
    expect(disputeSequence(100, 'needs_response')).toBeLessThan(disputeSequence(100, 'under_review'));
    expect(disputeSequence(100, 'under_review')).toBeLessThan(disputeSequence(100, 'lost'));
    expect(disputeSequence(100, 'won')).toBeLessThan(disputeSequence(101, 'needs_response'));
    expect(disputeSequence(100, 'warning_under_review')).toBeLessThan(disputeSequence(100, 'needs_response'));
  });

  it('gives a repeat of an event the same sequence, and a status it does not know the lowest of its second', () => {
    expect(disputeSequence(100, 'under_review')).toBe(disputeSequence(100, 'under_review'));
    expect(disputeSequence(100, 'something_new')).toBeLessThan(disputeSequence(100, 'warning_needs_response'));
    expect(disputeSequence(100, 'something_new')).toBeGreaterThan(disputeSequence(99, 'lost'));
  });
});

describe('the dispute lists and chargebacks', () => {
  it('files a running dispute as open and a decided one as closed', () => {
    for (const status of ['warning_needs_response', 'warning_under_review', 'needs_response', 'under_review'])
      expect(disputeState(status), status).toBe('open');
    for (const status of ['warning_closed', 'won', 'lost', 'prevented'])
      expect(disputeState(status), status).toBe('closed');
  });

  it('counts every dispute but an inquiry as a chargeback', () => {
    expect(isChargeback(dispute('needs_response'))).toBe(true);
    expect(isChargeback(dispute('won'))).toBe(true);
    expect(isChargeback(dispute('warning_needs_response'))).toBe(false);
    expect(isChargeback(undefined)).toBe(false);
  });
});

describe('cancelling a charged-back order', () => {
  const paidByCard = [transaction(25, 'pi_1')];

  it('refunds nothing by Stripe and ends cancelled', () => {
    const order = { transactions: paidByCard, dispute: dispute('needs_response') };
    expect(cancellationRefunds(order)).toEqual([]);
    expect(chargedBackPayment(order)).toBe(true);
    expect(cancellationOutcome(order)).toBe('cancelled');
  });

  it('refunds an inquiry, and an order without a dispute, as any payment', () => {
    for (const order of [
      { transactions: paidByCard, dispute: dispute('warning_needs_response') },
      { transactions: paidByCard },
    ]) {
      expect(cancellationRefunds(order)).toEqual([{ processor: 'stripe', amount: 25, paymentReference: 'pi_1' }]);
      expect(chargedBackPayment(order)).toBe(false);
      expect(cancellationOutcome(order)).toBe('refunded');
    }
  });
});

describe('refundFailures', () => {
  it('lists each correcting transaction as a failed refund, and nothing else', () => {
    const transactions = [
      transaction(25, 'pi_1'),
      transaction(-25, 're_1'),
      transaction(25, failedRefundReference('re_1')),
      transaction(-25, 're_2'),
    ];
    expect(refundFailures({ transactions })).toEqual([{ refundId: 're_1', amount: 25, at }]);
    expect(refundFailures({ transactions: transactions.slice(0, 2) })).toEqual([]);
  });
});
