import * as z from '../../schema.ts';
import type { TypeWithSold } from '../../events/domain/event.ts';
import { decideStateChange, statesOf } from '../../tickets/domain/ticket-states.ts';
import { isEligible, PROCESS_STATE, type TicketRecord } from '../../tickets/domain/ticket.ts';
import { addAmounts } from '../../money.ts';

/**
 * Upgrade options of a ticket: the other types of its event priced above its own. A
 * ticket that cannot be upgraded has none: not eligible (cancelled, transferred,
 * withdrawn, deleted), checked in, or already upgraded (the state machine's own answer
 * to `upgradeState: upgraded` through the upgrade path). Pure.
 */

/** `GET /my-account/upgrades/{ticketId}`: the types of the ticket's event priced above its own, cheapest first. */
export const UpgradeOptionResource = z.strictObject({
  ticketId: z.int(),
  fromTypeId: z.int(),
  targetTypeId: z.int(),
  name: z.string(),
  description: z.string(),
  priceDifference: z.number(),
  currency: z.string().check(z.describe("The event's currency (ISO 4217), what its checkout charges in.")),
  available: z.boolean().check(z.describe('The target type has room.')),
});
export type UpgradeOption = z.output<typeof UpgradeOptionResource>;

export function canUpgrade(ticket: TicketRecord): boolean {
  if (!isEligible(ticket) || ticket.processState === PROCESS_STATE.checkedIn || ticket.upgradeState !== 'none')
    return false;
  return decideStateChange(statesOf(ticket), { upgradeState: 'upgraded' }, ['upgrade']).ok;
}

/** Cheapest first, then by type id. */
export function upgradeOptions(
  ticket: TicketRecord,
  eventTypes: readonly TypeWithSold[],
  currency: string,
): UpgradeOption[] {
  const from = eventTypes.find((type) => type.id === ticket.typeId);
  if (!from || !canUpgrade(ticket)) return [];
  return eventTypes
    .filter((type) => type.id !== from.id && type.price > from.price)
    .sort((a, b) => a.price - b.price || a.id - b.id)
    .map((type) => ({
      ticketId: ticket.id,
      fromTypeId: from.id,
      targetTypeId: type.id,
      name: type.name,
      description: type.description ?? '',
      priceDifference: addAmounts([type.price, -from.price], currency ?? undefined),
      currency,
      available: type.sold < type.total,
    }));
}
