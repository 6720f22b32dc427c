/**
 * The on-sale rush's queue (onsale-core.ts): buyers refused `sold_out` wait here, as a sale's waiting room
 * holds them, instead of asking again and again. Once a second, while no admitted buyer is still asking,
 * it reads the portal's availability (held tickets are not available) and admits as many waiting buyers,
 * in arrival order, as there are tickets back on sale, each offered a type with tickets left and at most
 * that many. It closes when nothing is on sale, no buyer is between steps and `soldOut()` says every
 * ticket is sold (late Stripe deliveries are let go first: `releaseHeld`), or at the deadline.
 */
type Offer = { typeId: number; quantity: number };

export class WaitingRoom {
  private readonly waiters: { wanted: number; resolve: (offer: Offer | undefined) => void }[] = [];
  private admittedAsking = 0;
  private done = 0;

  constructor(
    private readonly types: readonly { id: number }[],
    private readonly availability: () => Promise<Map<number, number>>,
  ) {}

  get waiting(): number {
    return this.waiters.length;
  }

  /** A buyer refused sold out: resolves with what to ask for, or undefined when the sale is over. */
  wait(wanted: number, deadline: number): Promise<Offer | undefined> {
    if (performance.now() >= deadline) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push({ wanted, resolve }));
  }

  /** An admitted buyer's reservation was answered. */
  answered(): void {
    this.admittedAsking = Math.max(0, this.admittedAsking - 1);
  }

  /** A buyer is done (bought, walked away or left). */
  finished(): void {
    this.done++;
  }

  private close(): void {
    for (const waiter of this.waiters.splice(0)) waiter.resolve(undefined);
  }

  /** Runs until every buyer is done; answers whether it closed sold out. */
  async run(buyers: number, deadline: number, releaseHeld: () => Promise<void>, soldOut: () => Promise<boolean>) {
    let closedSoldOut = false;
    while (this.done < buyers) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      if (performance.now() >= deadline) {
        this.close();
        continue;
      }
      if (this.admittedAsking > 0 || !this.waiters.length) continue;
      const left = await this.availability();
      let onSale = [...left.values()].reduce((sum, n) => sum + n, 0);
      while (onSale > 0 && this.waiters.length) {
        const type = this.types.find((candidate) => (left.get(candidate.id) ?? 0) > 0)!;
        const quantity = Math.min(this.waiters[0]!.wanted, left.get(type.id)!);
        left.set(type.id, left.get(type.id)! - quantity);
        onSale -= quantity;
        this.admittedAsking++;
        this.waiters.shift()!.resolve({ typeId: type.id, quantity });
      }
      const between = buyers - this.done - this.waiters.length - this.admittedAsking;
      if (onSale === 0 && between === 0 && !this.admittedAsking) {
        await releaseHeld();
        if (await soldOut()) {
          closedSoldOut = true;
          this.close();
        }
      }
    }
    return closedSoldOut;
  }
}
