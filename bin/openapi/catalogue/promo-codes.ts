import { MAX_PROMO_CODES } from '#shared/selling/domain/promo-code';
import { MAX_PROMO_USES } from '#shared/selling/domain/promo-code-bodies';
import { type Entries, md } from './common.ts';

/**
 * The `events` tag's promo-code routes: an event's discount codes, which buyers name on their hold
 * (`POST /my-account/reservations` `promoCode`). A code is not part of the event's content: its edits need no
 * `version` and move none.
 */
const codeId = { codeId: 'The promo code id (a positive integer).' };

export const PROMO_CODES = {
  'POST /events/{id}/promo-codes': {
    summary: 'Add a promo code (ours)',
    description: md(
      `\`code\`: 3 to 32 letters, digits, \`-\` or \`_\`, matched case-insensitively and unique per event (409 \`promo_code_taken\` for \`summer\` beside \`SUMMER\`). \`percentOff\` (more than 0, at most 100, 3 decimals) or \`amountOff\` (in the event's currency, with no more decimals than it takes: 400 naming it), off the tickets of \`typeIds\` (the event's types; every type without them), never the shipping; an amount is spread over the applicable lines in proportion to their prices and never takes a line below 0. \`maxUses\` (1 to ${MAX_PROMO_USES}; none: no limit) counts holds holding the code plus paid orders: a hold takes a use, a released or lapsed hold gives it back, a paid order keeps it. \`validFrom\` / \`validUntil\` (ISO-8601 with an offset, stored in UTC) bound when a hold may name it. At most ${MAX_PROMO_CODES} codes an event (409 \`too_many_promo_codes\`); another scope's event is 404.`,
      "The uses are counted on up to 64 items of their own (one per 100 uses), each a conditional write in the hold's own transaction, so no rush uses a code more often than `maxUses`, and a code used by every buyer of an on-sale is no single hot item.",
    ),
    conflicts: ['promo_code_taken', 'too_many_promo_codes'],
    example: { code: 'EARLYBIRD', percentOff: 15, maxUses: 200, validUntil: '2027-05-01T00:00:00+02:00' },
  },
  'GET /events/{id}/promo-codes': {
    summary: "An event's promo codes (ours)",
    description:
      "Every code of the event in the order of their text, each with `uses`: the holds holding it now plus the paid orders that used it, exact as soon as a hold, release or payment has answered. Another scope's event is 404.",
  },
  'PATCH /events/{id}/promo-codes/{codeId}': {
    summary: 'Edit a promo code (ours)',
    description:
      'Only the fields sent change; `code` does not (another code is another code: add it). A discount of one kind replaces the other (`amountOff` clears `percentOff`); `null` clears `typeIds`, `maxUses` (no limit), `validFrom` or `validUntil`. A `maxUses` below the uses taken now is 409 `max_uses_below_uses` (with `uses`): end a code early with `validUntil`. Holds read the code afresh: a change applies to the next hold; a hold made before keeps its price.',
    parameters: codeId,
    conflicts: ['max_uses_below_uses', 'concurrent_update'],
    example: { maxUses: 500 },
  },
  'DELETE /events/{id}/promo-codes/{codeId}': {
    summary: 'Remove a promo code (ours)',
    description:
      'Only a code none of whose uses is taken (no hold holds it, no paid order used it): else 409 `promo_code_in_use`, since the orders that used it name it; end it with `validUntil` instead. 204.',
    parameters: codeId,
    conflicts: ['promo_code_in_use'],
  },
} satisfies Entries;
