import { describe, expect, it } from 'vitest';
import {
  discountOf,
  hasUseLeft,
  initialCaps,
  promoRefusal,
  recappedShards,
  usesShardsFor,
} from '#shared/selling/domain/promo-code';
import { NewPromoCodeBody, PromoCodePatchBody } from '#shared/selling/domain/promo-code-bodies';

/** Promo codes' pure rules (shared/selling/domain/promo-code.ts): shards, caps, validity, the discount. */
describe('promo code rules', () => {
  it('keeps one shard of uses per 100, at least 1 and at most 64, and 64 without a limit', () => {
    expect([1, 7, 100, 101, 250, 6_400, 1_000_000].map(usesShardsFor)).toEqual([1, 1, 1, 2, 3, 64, 64]);
    expect(usesShardsFor(null)).toBe(64);
  });

  it('spreads maxUses over the shards so that the caps add up to it', () => {
    expect(initialCaps(7, 1)).toEqual([7]);
    expect(initialCaps(250, 3)).toEqual([84, 83, 83]);
    expect(initialCaps(null, 2)).toEqual([null, null]);
  });

  it('recaps each shard to what it used plus its share of what is left, never below its uses', () => {
    const shards = [
      { shard: 0, used: 5, cap: 5 },
      { shard: 1, used: 1, cap: 2 },
    ];
    // 6 used of a new limit of 10: 4 left, spread over 3 shards (one new).
    const caps = recappedShards(shards, 3, 10)!;
    expect(caps).toEqual([7, 2, 1]);
    expect(caps.reduce<number>((sum, cap) => sum + (cap ?? 0), 0)).toBe(10);
    expect(recappedShards(shards, 2, 6)).toEqual([5, 1]);
    expect(recappedShards(shards, 2, 5)).toBeUndefined();
    expect(recappedShards(shards, 2, null)).toEqual([null, null]);
  });

  it('has a use left while a shard is under its cap, or has none', () => {
    expect(hasUseLeft({ shard: 0, used: 4, cap: 5 })).toBe(true);
    expect(hasUseLeft({ shard: 0, used: 5, cap: 5 })).toBe(false);
    expect(hasUseLeft({ shard: 0, used: 5_000, cap: null })).toBe(true);
  });

  it('refuses a code outside its validity as invalid, and one for none of the held types as not applicable', () => {
    const code = { validFrom: '2027-01-01T00:00:00.000Z', validUntil: '2027-02-01T00:00:00.000Z', typeIds: [3] };
    const at = (iso: string) => new Date(iso);
    expect(promoRefusal(code, at('2026-12-31T23:59:59.999Z'), [3])).toBe('promo_code_invalid');
    expect(promoRefusal(code, at('2027-01-01T00:00:00.000Z'), [3])).toBeUndefined();
    expect(promoRefusal(code, at('2027-02-01T00:00:00.000Z'), [3])).toBe('promo_code_invalid');
    expect(promoRefusal(code, at('2027-01-15T00:00:00.000Z'), [4])).toBe('promo_code_not_applicable');
    expect(promoRefusal(code, at('2027-01-15T00:00:00.000Z'), [4, 3])).toBeUndefined();
    expect(promoRefusal({ validFrom: null, validUntil: null, typeIds: null }, new Date(), [9])).toBeUndefined();
  });

  it("gives pricing.ts the code's discount, for its types only when it names some", () => {
    expect(discountOf({ percentOff: 15, amountOff: null, typeIds: null })).toEqual({ percentOff: 15 });
    expect(discountOf({ percentOff: null, amountOff: 5, typeIds: [1, 2] })).toEqual({ amountOff: 5, typeIds: [1, 2] });
  });

  it('takes a code of one discount, bounded, and a patch of at least one field', () => {
    expect(NewPromoCodeBody.safeParse({ code: 'summer-25', percentOff: 10 }).success).toBe(true);
    expect(NewPromoCodeBody.safeParse({ code: 'summer 25', percentOff: 10 }).success).toBe(false);
    expect(NewPromoCodeBody.safeParse({ code: 'x'.repeat(33), percentOff: 10 }).success).toBe(false);
    expect(NewPromoCodeBody.safeParse({ code: 'summer', percentOff: 10, amountOff: 1 }).success).toBe(false);
    expect(PromoCodePatchBody.safeParse({}).success).toBe(false);
    expect(PromoCodePatchBody.safeParse({ maxUses: null }).success).toBe(true);
    expect(PromoCodePatchBody.safeParse({ code: 'OTHER' }).success).toBe(false);
  });
});
