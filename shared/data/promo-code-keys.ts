import { sortableId, type Key } from './key-parts.ts';

/**
 * Promo codes' declarations (shared/selling/data/promo-codes.ts), part of `keys` (keys.ts) and held to the same rule: no key
 * template anywhere else. A code lives in its event's partition by its case-folded text (a hold finds it by one
 * GetItem), with a pointer by id (the routes name it by id) and the event's count of codes; its uses are shards of
 * their own partitions, as a type's stock is.
 */
export const promoCodeKeys = {
  promoCode: (eventId: number, codeKey: string): Key => ({ PK: `EVENT#${eventId}`, SK: `PROMO_CODE#${codeKey}` }),
  /** Every code of an event: one Query of its partition by this prefix, bounded by the event's count. */
  promoCodePrefix: 'PROMO_CODE#',
  promoCodeById: (eventId: number, id: number): Key => ({ PK: `EVENT#${eventId}`, SK: `PROMO_ID#${sortableId(id)}` }),
  /** How many codes the event holds (`n`), conditional on its maximum in each creation. */
  promoCodeCount: (eventId: number): Key => ({ PK: `EVENT#${eventId}`, SK: 'PROMO_COUNT' }),
  /** One shard of a code's uses: `used`, and `cap` (its share of `maxUses`; none without a limit). */
  promoUses: (codeId: number, shard: number): Key => ({ PK: `PROMO_USES#${codeId}#${shard}`, SK: 'PROMO_USES' }),
};
