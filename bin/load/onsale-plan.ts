/**
 * What each buyer of the on-sale rush (onsale-core.ts) does, drawn from a seed so a run can be replayed:
 * the shares are the rush's (30 % walk away from their hold, 5 % declined, 20 % send their checkout
 * twice with the same Idempotency-Key, 10 % of intents with their events sent twice, 10 % out of order, 10 %
 * late), plus 2 % who let their reservation go after the checkout and pay anyway (a payment arriving after
 * its reservation ended: it takes the tickets again if still there, else it is refunded).
 */
export interface BuyerPlan {
  /** Tickets asked for, 1 to 4. */
  quantity: number;
  /** 0: the big type (three quarters of the tickets), 1: the small one. */
  typeIndex: number;
  abandon: boolean;
  decline: boolean;
  /** After the decline, a good card on the same PaymentIntent (else the reservation is let go). */
  retryCard: boolean;
  retryKey: boolean;
  twice: boolean;
  outOfOrder: boolean;
  /** Stripe's deliveries for this intent held this long (0: at once). */
  lateMs: number;
  releaseThenPay: boolean;
}

/** mulberry32: a small, good-enough generator; one stream per buyer. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function buyerPlan(seed: number, buyer: number): BuyerPlan {
  const next = generator(Math.imul(seed, 0x9e3779b1) ^ Math.imul(buyer + 1, 0x85ebca6b));
  const chance = (p: number) => next() < p;
  const quantity = 1 + Math.floor(next() * 4);
  const typeIndex = chance(0.75) ? 0 : 1;
  const abandon = chance(0.3);
  const decline = chance(0.05);
  const retryCard = chance(0.5);
  const retryKey = chance(0.2);
  const twice = chance(0.1);
  const outOfOrder = chance(0.1);
  const lateMs = chance(0.1) ? 1_000 + Math.floor(next() * 9_000) : 0;
  const releaseThenPay = !decline && chance(0.02);
  return { quantity, typeIndex, abandon, decline, retryCard, retryKey, twice, outOfOrder, lateMs, releaseThenPay };
}
