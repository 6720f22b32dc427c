/**
 * A delivery's times, pure: its id's time part and whether an attempt holds it. Apart from the attempts' module
 * (use-cases/deliveries.ts), so that a redelivery, which only makes deliveries due, loads no sender and no mail.
 */

/** The time part of a delivery id: epoch milliseconds, 13 digits, so ids sort by creation. */
export const deliveryTime = (epochMs: number): string => String(epochMs).padStart(13, '0');

/** Whether an attempt holds the delivery now (its claim not yet run out): nobody else sends it meanwhile. */
export const heldByAttempt = (delivery: { claimedUntil?: string | undefined }, at: Date): boolean =>
  delivery.claimedUntil !== undefined && Date.parse(delivery.claimedUntil) > at.getTime();
