import { allocateIds } from '../../data/counters.ts';
import { commitHeldOrder } from '../data/box-office-orders.ts';
import { readDecideWrite } from '../../data/read-decide-write.ts';
import type { Order } from '../domain/order.ts';
import type { PromoCode } from '../domain/promo-code.ts';
import type { PromoUse, StockTake } from '../domain/reservation.ts';
import { planPromoUse, planStock } from './hold-takes.ts';

/**
 * An order's first step, however it is placed (the box office's sale, the seeds' and the tests' orders): its places
 * planned from the stock as read now, its id allocated once they are there (a sold-out order writes nothing), then the
 * order `pending` with its places held (`left` → `held`), and its promo code's use taken from a shard with one left
 * (`promo`, as a hold takes it: hold-takes.ts `planPromoUse`), in one transaction (orders.ts `commitHeldOrder`). A
 * shard emptied between the read and the write is read again (read-decide-write.ts); `sold_out` when a read finds too
 * few places, `promo_code_used_up` when it finds no use left.
 */
export async function holdOrder(
  request: Parameters<typeof planStock>[0],
  types: Parameters<typeof planStock>[1],
  order: (id: number, takes: StockTake[], use?: PromoUse) => Order,
  event: Parameters<typeof commitHeldOrder>[1],
  promo?: PromoCode,
): Promise<{ order: Order; takes: StockTake[] }> {
  let id: number | undefined;
  return readDecideWrite({
    subject: `The stock of event ${event.id}`,
    // The stock first, as a hold plans it: a sold-out sale is `sold_out` whatever its code.
    read: async () => ({ takes: await planStock(request, types), use: promo && (await planPromoUse(promo)) }),
    decide: async ({ takes, use }) => {
      id ??= await allocateIds('ORDER');
      const pending = order(id, takes, use);
      return { write: () => commitHeldOrder(pending, event, takes), answer: { order: pending, takes } };
    },
  });
}
