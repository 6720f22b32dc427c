import * as z from '../schema.ts';
import * as store from '../data/shipping-methods.ts';
import { bulkEntry, type BulkEntry, type ResultFormat } from '../http/envelopes.ts';
import { HttpProblem } from '../http/errors.ts';
import { positiveId } from '../http/bulk.ts';
import { NewShippingMethod, ShippingMethodPatch } from './shipping-method.ts';

/**
 * Bulk use-cases: every item is validated and carried out on its own, so one bad item
 * gets an `error` entry and the others still succeed. Entries keep the request's order.
 */
const explain = (error: z.core.$ZodError): string =>
  error.issues.map((issue) => `${issue.path.join('.') || 'item'}: ${issue.message}`).join('; ');

const NOT_FOUND = 'not found';

export async function bulkRead(ids: number[]): Promise<BulkEntry[]> {
  const found = await store.readShippingMethods(ids);
  return ids.map((id) => {
    const method = found.get(id);
    return bulkEntry('object', id, method ? { object: method } : { error: NOT_FOUND });
  });
}

export async function bulkCreate(items: unknown[], format: ResultFormat): Promise<BulkEntry[]> {
  const parsed = items.map((item) => NewShippingMethod.safeParse(item));
  const created = await store.createShippingMethods(parsed.flatMap((result) => (result.success ? [result.data] : [])));
  let next = 0;
  return parsed.map((result) => {
    if (!result.success) return bulkEntry(format, null, { error: explain(result.error) });
    const method = created[next++]!;
    return bulkEntry(format, method.id, { object: method });
  });
}

const UpdateItem = z.strictObject({ id: positiveId, data: ShippingMethodPatch });

export async function bulkUpdate(items: unknown[], format: ResultFormat): Promise<BulkEntry[]> {
  return Promise.all(
    items.map(async (item) => {
      const parsed = UpdateItem.safeParse(item);
      const id = typeof (item as { id?: unknown })?.id === 'number' ? (item as { id: number }).id : null;
      if (!parsed.success) return bulkEntry(format, id, { error: explain(parsed.error) });
      try {
        return bulkEntry(format, parsed.data.id, { object: await store.updateShippingMethod(parsed.data.id, parsed.data.data) });
      } catch (error) {
        if (error instanceof HttpProblem) return bulkEntry(format, parsed.data.id, { error: error.message });
        throw error;
      }
    }),
  );
}

export async function bulkDelete(ids: number[], format: ResultFormat): Promise<BulkEntry[]> {
  const deleted = await store.deleteShippingMethods(ids);
  const reported = new Set<number>();
  return ids.map((id) => {
    const method = deleted.get(id);
    // An id listed twice is deleted once; the repeat reports not found, as a second request would.
    if (!method || reported.has(id)) return bulkEntry(format, id, { error: NOT_FOUND });
    reported.add(id);
    return bulkEntry(format, id, { object: method });
  });
}
