import type { Discount } from './pricing.ts';
import type { PromoCodeResource } from './promo-code-bodies.ts';
import { MAX_STOCK_SHARDS, spreadStock } from './reservation.ts';
import { Conflict } from '../../errors.ts';

export type { PromoUse } from './reservation.ts';

/**
 * Promo codes (pure rules): an event's discount a buyer names on their hold (`promoCode`), `percentOff` or
 * `amountOff` the tickets of its `typeIds` (every type without them), valid from `validFrom` until `validUntil`, at
 * most `maxUses` holds at once plus paid orders. Codes are matched case-insensitively (`codeKey`) and unique per event.
 *
 * Uses are counted on shards (`usesShardsFor`), as a type's stock is: each shard its own item with `used` and
 * `cap` (its share of `maxUses`; none without a limit). A hold takes a use from one shard whose `used` is below its
 * `cap`, in the hold's own transaction; a release or lapse gives it back to that shard in theirs; a paid order keeps
 * it. The caps add up to `maxUses` and no shard's `used` passes its `cap`, so no rush uses a code more often.
 */

/** Codes an event holds at most: the admin list reads them whole (one bounded Query, their shards summed). */
export const MAX_PROMO_CODES = 100;

/**
 * Uses per shard: a code of at most this many uses keeps one shard (it is used up within the first second of a
 * rush whatever its shards, as a small type's stock is). A code without a limit, or with many, gets as many shards
 * as the stock of a type selling at the on-sale target (64, reservation.ts `MAX_STOCK_SHARDS`): at 1,000 holds a
 * second naming it, each a transaction on one shard, and up to 700 of them ending unpaid (each giving its use back),
 * about 27 transactions a second a shard, under an item's ~50.
 */
export const USES_PER_SHARD = 100;
export const MAX_USES_SHARDS = MAX_STOCK_SHARDS;
export const usesShardsFor = (maxUses: number | null): number =>
  maxUses === null ? MAX_USES_SHARDS : Math.max(1, Math.min(MAX_USES_SHARDS, Math.ceil(maxUses / USES_PER_SHARD)));

/** The key a code is matched by: the same letters whatever their case. */
export const codeKey = (code: string): string => code.toUpperCase();

/** A code as stored (its uses are its shards'). */
export type PromoCode = Omit<PromoCodeResource, 'uses'> & { usesShards: number; createdBy: number; updatedBy: number };

/** A code's share of uses on one shard: how many it holds, and its cap (none: no limit). */
export interface UsesShard {
  shard: number;
  used: number;
  cap: number | null;
}

/** How `maxUses` starts spread over a new code's shards (none: no caps). */
export const initialCaps = (maxUses: number | null, shards: number): (number | null)[] =>
  maxUses === null ? Array.from({ length: shards }, () => null) : spreadStock(maxUses, shards);

/**
 * Each shard's cap once `maxUses` changes, the shards read as `shards` (now `count` of them: a code that grows past
 * its shards' rate gets more, never fewer): every shard keeps what it has used, and what is left of the new limit is
 * spread over them. Undefined when more uses are taken than the new limit allows (the caller's 409).
 */
export function recappedShards(shards: readonly UsesShard[], count: number, maxUses: number | null) {
  const all = Array.from({ length: count }, (_, shard) => shards.find((read) => read.shard === shard)?.used ?? 0);
  if (maxUses === null) return all.map(() => null);
  const used = all.reduce((sum, value) => sum + value, 0);
  if (used > maxUses) return undefined;
  const spread = spreadStock(maxUses - used, count);
  return all.map((value, shard) => value + spread[shard]!);
}

/** Why a hold may not use `promo` at `at` for lines of `typeIds`, as its 409 reason; none when it may. */
export function promoRefusal(
  promo: Pick<PromoCode, 'validFrom' | 'validUntil' | 'typeIds'>,
  at: Date,
  typeIds: readonly number[],
): 'promo_code_invalid' | 'promo_code_not_applicable' | undefined {
  const now = at.toISOString();
  if ((promo.validFrom && now < promo.validFrom) || (promo.validUntil && now >= promo.validUntil))
    return 'promo_code_invalid';
  if (promo.typeIds && !typeIds.some((typeId) => promo.typeIds!.includes(typeId))) return 'promo_code_not_applicable';
  return undefined;
}

/** The discount the pricing applies (shared/selling/domain/pricing.ts `Discount`). */
export const discountOf = (promo: Pick<PromoCode, 'percentOff' | 'amountOff' | 'typeIds'>): Discount => ({
  ...(promo.percentOff !== null ? { percentOff: promo.percentOff } : { amountOff: promo.amountOff! }),
  ...(promo.typeIds ? { typeIds: promo.typeIds } : {}),
});

/** A shard with a use left. */
export const hasUseLeft = (shard: UsesShard): boolean => shard.cap === null || shard.used < shard.cap;

/**
 * A hold's (or a desk sale's) code refused, as a 409 with its `reason`: `promo_code_invalid` (no such code of the
 * event, or outside its validity), `promo_code_not_applicable` (none of the hold's types is one of its `typeIds`),
 * `promo_code_used_up` (every use taken by holds and paid orders).
 */
export const promoRefused = (reason: string, code: string, why: string) =>
  new Conflict(`Promo code ${code} ${why}.`, reason, { promoCode: code });

/**
 * The discount the code `named` (read as `promo`) gives a hold of `typeIds` at `at` (pricing.ts prices it), or its
 * 409: `promo_code_invalid` when the event has no such code.
 */
export function promoDiscount(
  named: string,
  promo: PromoCode | undefined,
  at: Date,
  typeIds: readonly number[],
): Discount {
  if (!promo) throw promoRefused('promo_code_invalid', named, 'is not a code of this event');
  const refusal = promoRefusal(promo, at, typeIds);
  if (refusal === 'promo_code_invalid') throw promoRefused(refusal, promo.code, 'is not valid now');
  if (refusal) throw promoRefused(refusal, promo.code, 'applies to none of the ticket types held');
  return discountOf(promo);
}
