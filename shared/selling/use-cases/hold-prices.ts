import type { Event, TicketType } from '../../events/domain/event.ts';
import type { Discount } from '../domain/pricing.ts';
import { shippingFor } from '../domain/reservation.ts';
import { priceSale, type ReservationAmounts, type ReservationLine } from '../domain/sale-prices.ts';
import { unpayableCharge, type ShippingMethod } from '../domain/shipping-method.ts';
import { Conflict } from '../../errors.ts';
import { chargeLimitProblem, chargeLimits, formatAmount, toMajor, toMinor } from '../../money.ts';

/**
 * A hold's prices, from the server only (the client sends no amount, no tax, no fee, no discount): each line by its
 * type's price and tax, the event's booking fee and its taxes on the fee and on shipping, the shipping by the method's
 * charges, a promo code's `discount` when the hold names one, in the event's currency (selling/domain/sale-prices.ts);
 * refused (409) before anything is held when the currency cannot take the method's charge or Stripe could not charge
 * the total. The box office's sale prices by the same rules (orders/sell-order.ts).
 */
export function priceHold(
  requested: readonly { typeId: number; quantity: number; waveTimeId?: number }[],
  types: ReadonlyMap<number, TicketType>,
  method: ShippingMethod | undefined,
  event: Pick<Event, 'bookingFee' | 'feeTax' | 'shippingTax'>,
  currency: string,
  discount?: Discount,
): { lines: ReservationLine[]; amounts: ReservationAmounts } {
  const quantity = requested.reduce((sum, line) => sum + line.quantity, 0);
  const shipping = shippingIn(method, quantity, currency);
  const priced = priceSale({ lines: requested, types, event, currency, shipping, discount });
  checkChargeable(priced.amounts);
  return priced;
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
