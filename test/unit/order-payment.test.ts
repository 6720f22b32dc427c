import { describe, expect, it } from 'vitest';
import type { OrderCheckout } from '#shared/selling/domain/order';
import { isOrderPayment, orderStripeAmount, paymentMismatch } from '#shared/selling/domain/order-payment';

/** Which payment pays a checkout's order (selling/domain/order-payment.ts): its stored intent, its amount, its currency. */
const order = (grandTotal: number, currency: string, paymentIntentId?: string) => ({
  grandTotal,
  checkout: { currency, ...(paymentIntentId ? { paymentIntentId } : {}) } as OrderCheckout,
  transactions: [],
});

describe('paymentMismatch', () => {
  it("is none for the order's stored intent, its total in minor units and its currency in any case", () => {
    expect(paymentMismatch(order(1000, 'EUR', 'pi_1'), { intentId: 'pi_1', amount: 100000, currency: 'eur' })).toBe(
      null,
    );
    expect(paymentMismatch(order(1500, 'JPY', 'pi_2'), { intentId: 'pi_2', amount: 1500, currency: 'jpy' })).toBe(null);
    expect(paymentMismatch(order(1.5, 'KWD', 'pi_3'), { intentId: 'pi_3', amount: 1500, currency: 'KWD' })).toBe(null);
  });

  it('names what differs: no order, another intent (or none stored), the currency, the amount', () => {
    const paid = { intentId: 'pi_1', amount: 100000, currency: 'eur' };
    expect(paymentMismatch(undefined, paid)).toBe('no_order');
    expect(paymentMismatch({ grandTotal: 1000 }, paid)).toBe('no_order');
    expect(paymentMismatch(order(1000, 'EUR', 'pi_other'), paid)).toBe('other_intent');
    expect(paymentMismatch(order(1000, 'EUR'), paid)).toBe('other_intent');
    expect(paymentMismatch(order(1000, 'EUR', 'pi_1'), { ...paid, currency: 'usd' })).toBe('currency');
    expect(paymentMismatch(order(1000, 'EUR', 'pi_1'), { ...paid, amount: 5000 })).toBe('amount');
    // ¥1,000 asked at the scale of cents would be ¥100,000.
    expect(paymentMismatch(order(1000, 'JPY', 'pi_1'), { ...paid, currency: 'jpy' })).toBe('amount');
  });
});

describe('orderStripeAmount', () => {
  it("is the total in the currency's minor unit", () => {
    expect(orderStripeAmount(order(12.5, 'EUR'))).toBe(1250);
    expect(orderStripeAmount(order(1500, 'JPY'))).toBe(1500);
    expect(orderStripeAmount(order(1.5, 'KWD'))).toBe(1500);
  });
});

describe('isOrderPayment', () => {
  it('is the stored intent, or one recorded as paying the order; not a refund nor another processor', () => {
    expect(isOrderPayment(order(10, 'EUR', 'pi_1'), 'pi_1')).toBe(true);
    expect(isOrderPayment(order(10, 'EUR', 'pi_1'), 'pi_2')).toBe(false);
    const time = '2030-01-01T00:00:00.000Z';
    const recorded = {
      checkout: undefined,
      transactions: [
        { amount: 10, processor: 'stripe', reference: 'pi_old', time },
        { amount: -10, processor: 'stripe', reference: 're_1', time },
        { amount: 10, processor: 'cash', reference: 'pi_cash', time },
      ],
    };
    expect(isOrderPayment(recorded, 'pi_old')).toBe(true);
    expect(isOrderPayment(recorded, 're_1')).toBe(false);
    expect(isOrderPayment(recorded, 'pi_cash')).toBe(false);
  });
});
