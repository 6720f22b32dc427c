/**
 * Ids handed out from blocks a container holds in memory, so the sequences the sale takes ids from are written once
 * per block instead of once per id. Every id is still unique (each block is drawn with one atomic ADD on the
 * sequence's item, so blocks never overlap), and the ids of one call are consecutive (callers number a call's items
 * from its first id: event-creation.ts, shipping-methods.ts, the seeds). What is given up is creation order across
 * containers: a container that drew its block earlier hands out lower ids later than another's, and the ids a
 * container still held when it ended are never used. Within one container a later call gets a higher id than every
 * earlier one (one draw at a time, each block above the last), except after a call larger than a block (only the
 * seeds make one), which draws its ids alone. Nothing reads creation order from an id: the staff's order lists sort
 * by purchase instant, the sync and the gate's changes walk update time, and the lists "in id order"
 * (shared/lists/README.md) only need an order that stays put (shared/README.md "Ids").
 *
 * Block sizes, for the target of two events each selling 1,000 holds and 300 paid orders of two tickets a second:
 * reservations 2,000 ids a second, tickets 1,200, orders at least 600 (checkouts left unpaid take one too). One
 * UpdateItem per 100 ids keeps each sequence at ≤ 20 writes a second for the stage (a sequence item takes 1,000),
 * plus one per container's first id after it starts. A sequence not named here is taken at staff or sign-up rates
 * and draws one id per call: its ids stay dense and in creation order.
 */
export const ID_BLOCK_SIZES: Readonly<Record<string, number>> = { RESERVATION: 100, TICKET: 100, ORDER: 100 };

/** Draws `count` consecutive ids from `sequence` in one atomic write; answers the first. */
export type DrawIds = (sequence: string, count: number) => Promise<number>;

interface Block {
  next: number;
  /** The first id past the block. */
  end: number;
}

/** One container's blocks (the module's instance in counters.ts; a test makes two to stand for two containers). */
export class IdBlocks {
  private readonly blocks = new Map<string, Block>();
  /** The one draw in flight per sequence: calls that find too few ids at once wait for it rather than draw a block each. */
  private readonly drawing = new Map<string, Promise<void>>();

  constructor(
    private readonly draw: DrawIds,
    private readonly sizes: Readonly<Record<string, number>> = ID_BLOCK_SIZES,
  ) {}

  /**
   * `count` consecutive ids of `sequence`; answers the first. From the block held, else from a fresh one (the rest of
   * the old one unused). A sequence without a block size, or a call larger than a block, draws its ids alone.
   */
  async take(sequence: string, count = 1): Promise<number> {
    const size = this.sizes[sequence];
    if (size === undefined || count > size) return this.draw(sequence, count);
    for (;;) {
      const held = this.blocks.get(sequence);
      if (held && held.end - held.next >= count) {
        held.next += count;
        return held.next - count;
      }
      await (this.drawing.get(sequence) ?? this.refill(sequence, size));
    }
  }

  /** How many ids of `sequence` this container holds undrawn (what its next calls take without a write). */
  inHand(sequence: string): number {
    const held = this.blocks.get(sequence);
    return held ? held.end - held.next : 0;
  }

  /** One draw at a time per sequence, so each block is above the one before: a later call gets a higher id. */
  private refill(sequence: string, size: number): Promise<void> {
    const drawn = this.draw(sequence, size)
      .then((first) => {
        this.blocks.set(sequence, { next: first, end: first + size });
      })
      .finally(() => this.drawing.delete(sequence));
    this.drawing.set(sequence, drawn);
    return drawn;
  }
}
