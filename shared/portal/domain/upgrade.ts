import * as z from '../../schema.ts';
import { type Event, saleCurrency, type TypeWithSold } from '../../events/domain/event.ts';
import { priceSale } from '../../selling/domain/sale-prices.ts';
import { decideStateChange, statesOf } from '../../tickets/domain/ticket-states.ts';
import { isEligible, PROCESS_STATE, type TicketRecord } from '../../tickets/domain/ticket.ts';
import { addAmounts } from '../../money.ts';

/**
 * Upgrade options of a ticket: the other types of its event that cost the buyer more than its own. A
 * ticket that cannot be upgraded has none: not eligible (cancelled, transferred,
 * withdrawn, deleted), checked in, or already upgraded (the state machine's own answer
 * to `upgradeState: upgraded` through the upgrade path). Pure.
 */

/** `GET /my-account/upgrades/{ticketId}`: the types of the ticket's event dearer to the buyer than its own, cheapest first. */
export const UpgradeOptionResource = z.lazy(() =>
  z.strictObject({
    ticketId: z.int(),
    fromTypeId: z.int(),
    targetTypeId: z.int(),
    name: z.string(),
    description: z.string(),
    priceDifference: z
      .number()
      .check(
        z.describe(
          "What one ticket of the target type costs the buyer less what one of the ticket's type does, each with its tax when added to the price and its booking fee (as a hold prices them), in major units.",
        ),
      ),
    currency: z.string().check(z.describe("The event's currency (ISO 4217), what its checkout charges in.")),
    available: z.boolean().check(z.describe('The target type has room.')),
  }),
);
export type UpgradeOption = z.output<typeof UpgradeOptionResource>;

export function canUpgrade(ticket: TicketRecord): boolean {
  if (!isEligible(ticket) || ticket.processState === PROCESS_STATE.checkedIn || ticket.upgradeState !== 'none')
    return false;
  return decideStateChange(statesOf(ticket), { upgradeState: 'upgraded' }, ['upgrade']).ok;
}

type SaleEvent = Pick<Event, 'bookingFee' | 'feeTax' | 'shippingTax' | 'currency'>;

/**
 * What one ticket of the type costs its buyer now, in major units: its price, its tax when added (US style; an
 * included one is in the price already), its booking fee and that fee's tax, priced as a hold prices it
 * (selling's sale-prices.ts → pricing.ts, the one place lines are priced). An upgrade compares these, not the stored
 * prices: a type with its tax added or a percentage fee costs more than its price says.
 */
export function buyerCost(type: TypeWithSold, event: SaleEvent): number {
  const types = new Map([[type.id, type]]);
  const sale = { lines: [{ typeId: type.id, quantity: 1 }], types, event, shipping: 0 };
  return priceSale({ ...sale, currency: saleCurrency(event) }).amounts.total;
}

/** Cheapest to the buyer first, then by type id. */
export function upgradeOptions(
  ticket: TicketRecord,
  eventTypes: readonly TypeWithSold[],
  event: SaleEvent,
): UpgradeOption[] {
  const from = eventTypes.find((type) => type.id === ticket.typeId);
  if (!from || !canUpgrade(ticket)) return [];
  const currency = saleCurrency(event);
  const fromCost = buyerCost(from, event);
  return eventTypes
    .map((type) => ({ type, cost: buyerCost(type, event) }))
    .filter(({ type, cost }) => type.id !== from.id && cost > fromCost)
    .sort((a, b) => a.cost - b.cost || a.type.id - b.type.id)
    .map(({ type, cost }) => ({
      ticketId: ticket.id,
      fromTypeId: from.id,
      targetTypeId: type.id,
      name: type.name,
      description: type.description ?? '',
      priceDifference: addAmounts([cost, -fromCost], currency),
      currency,
      available: type.sold < type.total,
    }));
}
