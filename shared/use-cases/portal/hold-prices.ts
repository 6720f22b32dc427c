import type { TicketType } from '../../domain/event.ts';
import { type Discount, priceReservation } from '../../domain/pricing.ts';
import {
  amountsOf,
  priceLine,
  shippingFor,
  type ReservationAmounts,
  type ReservationLine,
} from '../../domain/reservation.ts';
import { unpayableCharge, type ShippingMethod } from '../../domain/shipping-method.ts';
import { Conflict } from '../../errors.ts';
import { chargeLimitProblem, chargeLimits, formatAmount, toMajor, toMinor } from '../../money.ts';

/**
 * A hold's prices, from the server only (the client sends no amount): each line by its type's price, a promo code's
 * `discount` off the tickets, the shipping by the method's charges, in the event's currency; refused (409) before
 * anything is held when the currency cannot take the method's charge or Stripe could not charge the total.
 */
export function priceHold(
  requested: readonly { typeId: number; quantity: number; waveTimeId?: number }[],
  types: ReadonlyMap<number, TicketType>,
  method: ShippingMethod | undefined,
  currency: string,
  discount?: Discount,
): { lines: ReservationLine[]; amounts: ReservationAmounts } {
  const lines = requested.map((line) =>
    priceLine(types.get(line.typeId)!, line.quantity, line.waveTimeId ?? null, currency),
  );
  const quantity = requested.reduce((sum, line) => sum + line.quantity, 0);
  const off = discount ? discountOff(lines, discount, currency) : 0;
  const amounts = amountsOf(lines, shippingIn(method, quantity, currency), currency, off);
  checkChargeable(amounts);
  return { lines, amounts };
}

/**
 * The discount off the lines by the one pricing rule (shared/domain/pricing.ts: a percentage of each applicable
 * line, or an amount spread over them, never below 0), in major units.
 */
function discountOff(lines: readonly ReservationLine[], discount: Discount, currency: string): number {
  const priced = priceReservation({
    currency,
    lines: lines.map(({ typeId, quantity, unitPrice }) => ({ typeId, quantity, unitPrice })),
    discount,
  });
  return toMajor(priced.amounts.discount, currency);
}

/**
 * Shipping in the event's currency: a method's charge with more decimals than that currency takes (9.5 for a JPY
 * event; methods are stage-wide, without a currency) is 409 `shipping_charge_not_in_currency`, never rounded.
 */
function shippingIn(method: ShippingMethod | undefined, tickets: number, currency: string): number {
  const charge = method && unpayableCharge(method, tickets, currency);
  if (charge !== undefined)
    throw new Conflict(
      `Shipping method ${method!.id} charges ${charge}, which is not an amount of ${currency}: choose another method.`,
      'shipping_charge_not_in_currency',
      { shippingMethodId: method!.id, charge, currency },
    );
  return shippingFor(method, tickets, currency);
}

/**
 * A total Stripe would refuse to charge is refused before anything is held (409 `amount_below_minimum` or
 * `amount_above_maximum`, with both limits in major units); a free hold (total 0) charges nothing.
 */
function checkChargeable(amounts: ReservationAmounts): void {
  const { currency, total } = amounts;
  const reason = chargeLimitProblem(toMinor(total, currency), currency);
  if (!reason) return;
  const limits = chargeLimits(currency);
  const minimum = toMajor(limits.minimum, currency);
  const maximum = toMajor(limits.maximum, currency);
  throw new Conflict(
    reason === 'amount_below_minimum'
      ? `A total of ${formatAmount(total, currency)} is below the least a card payment takes, ${formatAmount(minimum, currency)}.`
      : `A total of ${formatAmount(total, currency)} is above the most a card payment takes, ${formatAmount(maximum, currency)}: hold fewer tickets.`,
    reason,
    { total, minimum, maximum, currency },
  );
}
