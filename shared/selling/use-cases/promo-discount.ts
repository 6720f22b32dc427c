import { readUsesShards } from '../data/promo-codes.ts';
import type { Discount } from '../domain/pricing.ts';
import { discountOf, hasUseLeft, type PromoCode, type PromoUse, promoRefusal } from '../domain/promo-code.ts';
import { sampleShards } from '../domain/reservation.ts';
import { Conflict } from '../../errors.ts';

/**
 * A hold's promo code (`promoCode` of `POST /my-account/reservations`): the discount it gives the hold's pricing and
 * the use the hold takes in its own transaction (selling/data/reservations.ts `holdReservation`), or a 409 with its `reason`:
 * `promo_code_invalid` (no such code of the event, or outside its validity), `promo_code_not_applicable` (none of
 * the hold's types is one of its `typeIds`), `promo_code_used_up` (every use taken by holds and paid orders).
 */

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
  if (!promo) throw refused('promo_code_invalid', named, 'is not a code of this event');
  const refusal = promoRefusal(promo, at, typeIds);
  if (refusal === 'promo_code_invalid') throw refused(refusal, promo.code, 'is not valid now');
  if (refusal) throw refused(refusal, promo.code, 'applies to none of the ticket types held');
  return discountOf(promo);
}

/** The shards a hold reads first, as a type's stock (reservation.ts STOCK_SAMPLE): a few, at random. */
const USES_SAMPLE = 4;

/**
 * The shard a hold takes its use from: one with a use left among a few read at random (one consistent BatchGetItem),
 * else among all of them (a second), else 409 `promo_code_used_up`. The take is conditional on the shard still having
 * it, so a plan read a moment ago can never use the code past `maxUses`; it can only be refused and planned again.
 */
export async function planPromoUse(promo: PromoCode): Promise<PromoUse> {
  const sample = sampleShards(promo.usesShards, USES_SAMPLE);
  const read = await readUsesShards(sample.map((shard) => ({ codeId: promo.id, shard })));
  let open = read.filter(hasUseLeft);
  if (!open.length && sample.length < promo.usesShards) {
    const rest = Array.from({ length: promo.usesShards }, (_, shard) => shard).filter((s) => !sample.includes(s));
    open = (await readUsesShards(rest.map((shard) => ({ codeId: promo.id, shard })))).filter(hasUseLeft);
  }
  const chosen = open[Math.floor(Math.random() * open.length)];
  if (!chosen) throw refused('promo_code_used_up', promo.code, 'has been used as often as it may');
  return { codeId: promo.id, code: promo.code, shard: chosen.shard };
}

const refused = (reason: string, code: string, why: string) =>
  new Conflict(`Promo code ${code} ${why}.`, reason, { promoCode: code });
