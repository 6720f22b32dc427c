import { describe, expect, it } from 'vitest';
import {
  NewShippingMethod,
  ShippingMethodPatch,
  shippingCharge,
  unpayableCharge,
} from '#shared/selling/domain/shipping-method';

describe('shipping method validation', () => {
  it('fills defaults on create and requires only a name', () => {
    expect(NewShippingMethod.parse({ name: 'Post' })).toEqual({
      name: 'Post',
      description: '',
      charge: 0,
      twoPlusCharge: 0,
      chargeType: 'per_order',
      hasETickets: false,
      requiresShippingInfo: false,
      allowInternational: false,
      hasBadges: false,
    });
  });

  it('refuses unknown fields, wrong types and negative charges', () => {
    const result = NewShippingMethod.safeParse({ name: 'Post', colour: 'red', charge: '5', twoPlusCharge: -1 });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.') || issue.code);
    expect(paths).toEqual(expect.arrayContaining(['charge', 'twoPlusCharge', 'unrecognized_keys']));
  });

  it('refuses an empty patch and an unknown charge type', () => {
    expect(ShippingMethodPatch.safeParse({}).success).toBe(false);
    expect(ShippingMethodPatch.safeParse({ chargeType: 'weekly' }).success).toBe(false);
    expect(ShippingMethodPatch.parse({ hasBadges: true })).toEqual({ hasBadges: true });
  });
});

describe('shippingCharge', () => {
  const method = { charge: 4.5, twoPlusCharge: 1.25, chargeType: 'per_ticket' as const };
  it('charges per_ticket the charge for the first ticket and twoPlusCharge for each further one', () => {
    expect([0, 1, 2, 4].map((tickets) => shippingCharge(method, tickets, 'EUR'))).toEqual([0, 4.5, 5.75, 8.25]);
  });
  it('charges per_order the charge once, whatever the tickets', () => {
    expect([1, 3].map((tickets) => shippingCharge({ ...method, chargeType: 'per_order' }, tickets, 'EUR'))).toEqual([
      4.5, 4.5,
    ]);
  });
  it("names the first charge it would apply that the event's currency cannot take (9.5 for a JPY event)", () => {
    expect(unpayableCharge({ ...method, charge: 9.5 }, 1, 'JPY')).toBe(9.5);
    expect(unpayableCharge({ charge: 900, twoPlusCharge: 0.5, chargeType: 'per_ticket' }, 1, 'JPY')).toBeUndefined();
    expect(unpayableCharge({ charge: 900, twoPlusCharge: 0.5, chargeType: 'per_ticket' }, 2, 'JPY')).toBe(0.5);
    expect(unpayableCharge(method, 3, 'EUR')).toBeUndefined();
  });
});
