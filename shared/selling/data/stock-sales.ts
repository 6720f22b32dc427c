import type { TicketType } from '../../events/domain/event.ts';
import { batchGet } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';
import type { ShardSales } from '../domain/sale-figures.ts';

/**
 * The stock shards' `sold` and sales sums of several types (stock.ts; domain/sale-figures.ts), by type id, read
 * strongly consistent so the figures are exact as soon as the sale that moved them has answered: one BatchGetItem
 * for every shard of every type (100 keys a call, the calls sent at once), never an order read.
 */
export async function readTypeSales(
  types: readonly Pick<TicketType, 'id' | 'stockShards'>[],
): Promise<Map<number, ShardSales[]>> {
  const wanted = types.flatMap((type) => Array.from({ length: type.stockShards }, (_, shard) => ({ type, shard })));
  const items = await batchGet(
    wanted.map(({ type, shard }) => keys.stock(type.id, shard)),
    { consistent: true },
  );
  const sales = new Map<number, ShardSales[]>(types.map((type) => [type.id, []]));
  wanted.forEach(({ type }, n) => {
    const stored = (name: keyof ShardSales) => Number(items[n]?.[name] ?? 0);
    sales.get(type.id)!.push({
      sold: stored('sold'),
      gross: stored('gross'),
      tax: stored('tax'),
      fees: stored('fees'),
      discount: stored('discount'),
    });
  });
  return sales;
}
