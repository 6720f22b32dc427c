import type { AdminPrincipal } from '../../auth/tokens.ts';
import { getEvent, listTicketTypes } from '../../events/data/events.ts';
import { saleCurrency } from '../../events/domain/event.ts';
import { NotFound } from '../../errors.ts';
import { inScope } from '../../identity/use-cases/event-scope.ts';
import { readTypeSales } from '../data/stock-sales.ts';
import { type EventSales, salesFigures } from '../domain/sale-figures.ts';

/**
 * `GET /events/{id}/sales`: each ticket type's sold tickets and what they brought (gross, net, tax, fees, discount),
 * and the event's totals, from the sums its stock shards keep (domain/sale-figures.ts): the event, its types (one
 * bounded Query) and one BatchGetItem of their shards, whatever the number of orders. Another scope's event is 404.
 */
export async function eventSales(caller: Pick<AdminPrincipal, 'eventScope'>, eventId: number): Promise<EventSales> {
  if (!inScope(caller.eventScope, eventId)) throw new NotFound('Event', eventId);
  const [event, types] = await Promise.all([getEvent(eventId), listTicketTypes(eventId)]);
  const currency = saleCurrency(event);
  const sales = await readTypeSales(types);
  return {
    eventId,
    currency,
    totals: salesFigures([...sales.values()].flat(), currency),
    types: types.map((type) => ({
      typeId: type.id,
      name: type.name,
      ...salesFigures(sales.get(type.id) ?? [], currency),
    })),
  };
}
