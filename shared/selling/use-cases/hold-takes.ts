import { readUsesShards } from '../data/promo-codes.ts';
import { readShards, type ReadShard } from '../data/stock.ts';
import { rememberSoldOut, soldOutLeft } from '../data/event-sale-cache.ts';
import type { TicketType } from '../../events/domain/event.ts';
import { planTakes, sampleShards, STOCK_SAMPLE, type StockShard, type StockTake } from '../domain/reservation.ts';
import { hasUseLeft, type PromoCode, type PromoUse, promoRefused } from '../domain/promo-code.ts';
import { Conflict } from '../../errors.ts';

/**
 * What a hold (or a box-office sale) takes, each from a shard read a moment ago and written later on condition that
 * the shard still has it, so a plan can never oversell nor use a promo code past its `maxUses`; it can only be
 * refused and planned again: its tickets (a take per stock shard, selling/data/stock.ts `holdAction`) and its promo
 * code's use (`planPromoUse`, selling/data/holds.ts `promoUseAction`).
 *
 * One read, not one per shard: a few random shards of every type the lines name (STOCK_SAMPLE each, one
 * consistent BatchGetItem), since at a type's 64 shards a read of all of them would cost 64 read units
 * a hold. A type none of whose sampled shards holds its whole line is read again whole (a second
 * BatchGetItem, all its shards) and planned from every shard: near the end of a sale the last places
 * sit on a few shards, and a hold finds them or answers `sold_out` with what the whole read found.
 * `sampled`: the sample's shards when the caller read them already (stockSample's, with items of its own).
 */
export async function planStock(
  request: { lines: readonly { typeId: number; quantity: number }[] },
  types: Map<number, TicketType>,
  sampled?: readonly ReadShard[],
): Promise<StockTake[]> {
  const wanted = wantedOf(request);
  sampled ??= await readShards(stockSample(request, types));
  const takes: StockTake[] = [];
  const short: number[] = [];
  for (const [typeId, quantity] of wanted) {
    const read = sampled.filter((shard) => shard.typeId === typeId);
    const whole = read.filter((shard) => shard.left >= quantity);
    if (whole.length) takes.push(...planTakes(typeId, whole, quantity)!);
    else if (read.length === types.get(typeId)!.stockShards)
      takes.push(...planFrom(types.get(typeId)!, read, quantity));
    else short.push(typeId);
  }
  if (!short.length) return takes;
  const everyShard = await readShards(
    short.flatMap((typeId) =>
      Array.from({ length: types.get(typeId)!.stockShards }, (_, shard) => ({ typeId, shard })),
    ),
  );
  for (const typeId of short)
    takes.push(
      ...planFrom(
        types.get(typeId)!,
        everyShard.filter((shard) => shard.typeId === typeId),
        wanted.get(typeId)!,
      ),
    );
  return takes;
}

/** The shards a plan reads first: STOCK_SAMPLE of every type the lines name, at random (all of a type with no more). */
export function stockSample(
  request: { lines: readonly { typeId: number; quantity: number }[] },
  types: Map<number, TicketType>,
): Pick<StockTake, 'typeId' | 'shard'>[] {
  return [...wantedOf(request).keys()].flatMap((typeId) =>
    sampleShards(types.get(typeId)!.stockShards, STOCK_SAMPLE).map((shard) => ({ typeId, shard })),
  );
}

/** The quantity each type's lines want, by type id. */
function wantedOf(request: { lines: readonly { typeId: number; quantity: number }[] }): Map<number, number> {
  const wanted = new Map<number, number>();
  for (const line of request.lines) wanted.set(line.typeId, (wanted.get(line.typeId) ?? 0) + line.quantity);
  return wanted;
}

/** The takes of `quantity` from every shard of `type` (read whole), pieced from several if need be, else `sold_out`. */
function planFrom(type: TicketType, shards: readonly StockShard[], quantity: number): StockTake[] {
  const planned = planTakes(type.id, shards, quantity);
  if (planned) return planned;
  const left = shards.reduce((sum, shard) => sum + shard.left, 0);
  rememberSoldOut(type.id, left);
  throw soldOut(type, left);
}

/**
 * `sold_out` without a read when this container read a type of the lines whole a moment ago and found too few, else
 * undefined. The lines' types are the event's (`types` has each: reservations.ts `checkLines` first).
 */
export function knownSoldOut(
  request: { lines: readonly { typeId: number; quantity: number }[] },
  types: Map<number, TicketType>,
): Conflict | undefined {
  for (const [typeId, quantity] of wantedOf(request)) {
    const left = soldOutLeft(typeId);
    if (left !== undefined && left < quantity) return soldOut(types.get(typeId)!, left);
  }
  return undefined;
}

export const soldOut = (type: Pick<TicketType, 'id' | 'name'>, left: number) =>
  new Conflict(`Ticket type ${type.id} (${type.name}) has ${left} tickets left.`, 'sold_out', {
    typeId: type.id,
    left,
  });

/** The shards a hold reads first, as a type's stock (reservation.ts STOCK_SAMPLE): a few, at random. */
const USES_SAMPLE = 4;

/**
 * The shard a hold takes its use from: one with a use left among a few read at random (one consistent BatchGetItem),
 * else among all of them (a second), else 409 `promo_code_used_up`. The take is conditional on the shard still having
 * it, so a plan read a moment ago can never use the code past `maxUses`; it can only be refused and planned again.
 */
export async function planPromoUse(promo: PromoCode): Promise<PromoUse> {
  const sample = sampleShards(promo.usesShards, USES_SAMPLE);
  const read = await readUsesShards(sample.map((shard) => ({ codeId: promo.id, shard })));
  let open = read.filter(hasUseLeft);
  if (!open.length && sample.length < promo.usesShards) {
    const rest = Array.from({ length: promo.usesShards }, (_, shard) => shard).filter((s) => !sample.includes(s));
    open = (await readUsesShards(rest.map((shard) => ({ codeId: promo.id, shard })))).filter(hasUseLeft);
  }
  const chosen = open[Math.floor(Math.random() * open.length)];
  if (!chosen) throw promoRefused('promo_code_used_up', promo.code, 'has been used as often as it may');
  return { codeId: promo.id, code: promo.code, shard: chosen.shard };
}
