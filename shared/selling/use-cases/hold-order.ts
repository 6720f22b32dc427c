import { allocateIds } from '../../data/counters.ts';
import { commitHeldOrder } from '../data/orders.ts';
import { readDecideWrite } from '../../data/read-decide-write.ts';
import type { Order } from '../domain/order.ts';
import type { StockTake } from '../domain/reservation.ts';
import { planStock } from './hold-stock.ts';

/**
 * An order's first step, however it is placed (the box office's sale, the seeds' and the tests' orders): its places
 * planned from the stock as read now, its id allocated once they are there (a sold-out order writes nothing), then the
 * order `pending` with its places held (`left` → `held`) in one transaction (orders.ts `commitHeldOrder`). A shard
 * emptied between the read and the write is read again (read-decide-write.ts); `sold_out` when a read finds too few.
 */
export async function holdOrder(
  request: Parameters<typeof planStock>[0],
  types: Parameters<typeof planStock>[1],
  order: (id: number, takes: StockTake[]) => Order,
  event: Parameters<typeof commitHeldOrder>[1],
): Promise<{ order: Order; takes: StockTake[] }> {
  let id: number | undefined;
  return readDecideWrite({
    subject: `The stock of event ${event.id}`,
    read: () => planStock(request, types),
    decide: async (takes) => {
      id ??= await allocateIds('ORDER');
      const pending = order(id, takes);
      return { write: () => commitHeldOrder(pending, event, takes), answer: { order: pending, takes } };
    },
  });
}
