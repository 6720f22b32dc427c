import * as z from '../../schema.ts';
import * as store from '../data/shipping-methods.ts';
import { positiveId } from '../../domain/ids.ts';
import type { BulkOutcome } from '../../domain/paging.ts';
import { NewShippingMethod, ShippingMethodPatch, type ShippingMethod } from '../domain/shipping-method.ts';
import { AppError } from '../../errors.ts';

/**
 * Shipping methods. A single get, list, create, update or delete has no rule beyond what its repository function
 * already holds (the keys, the count, the cap in the create's transaction), so the handlers reach those through
 * this module as the repository's own functions: no use case that only forwards, and storage still only through
 * here (README, the layers). Bulk operations validate and carry out every item on its own, so one bad item gets an
 * `error` outcome and the others still succeed. Outcomes keep the request's order.
 */
export {
  createShippingMethod,
  deleteShippingMethod,
  getShippingMethod,
  listShippingMethods,
  updateShippingMethod,
} from '../data/shipping-methods.ts';

type Outcome = BulkOutcome<ShippingMethod>;

const explain = (error: z.core.$ZodError): string =>
  error.issues.map((issue) => `${issue.path.join('.') || 'item'}: ${issue.message}`).join('; ');

const NOT_FOUND = 'not found';

export async function bulkRead(ids: number[]): Promise<Outcome[]> {
  const found = await store.readShippingMethods(ids);
  return ids.map((id) => {
    const method = found.get(id);
    return method ? { id, object: method } : { id, error: NOT_FOUND };
  });
}

/** The valid items are created together; past the cap (MAX_SHIPPING_METHODS) those without room fail, each saying why. */
export async function bulkCreate(items: unknown[]): Promise<Outcome[]> {
  const parsed = items.map((item) => NewShippingMethod.safeParse(item));
  const valid = parsed.flatMap((result) => (result.success ? [result.data] : []));
  let created: ShippingMethod[];
  let refused = '';
  try {
    created = await store.createShippingMethods(valid);
  } catch (error) {
    if (!(error instanceof store.TooManyShippingMethods)) throw error;
    created = error.created;
    refused = error.message;
  }
  let next = 0;
  return parsed.map((result) => {
    if (!result.success) return { id: null, error: explain(result.error) };
    const method = created[next++];
    return method ? { id: method.id, object: method } : { id: null, error: refused };
  });
}

const UpdateItem = z.lazy(() => z.strictObject({ id: positiveId, data: ShippingMethodPatch }));

export async function bulkUpdate(items: unknown[]): Promise<Outcome[]> {
  return Promise.all(
    items.map(async (item): Promise<Outcome> => {
      const parsed = UpdateItem.safeParse(item);
      const id = typeof (item as { id?: unknown })?.id === 'number' ? (item as { id: number }).id : null;
      if (!parsed.success) return { id, error: explain(parsed.error) };
      try {
        return { id: parsed.data.id, object: await store.updateShippingMethod(parsed.data.id, parsed.data.data) };
      } catch (error) {
        if (error instanceof AppError) return { id: parsed.data.id, error: error.message };
        throw error;
      }
    }),
  );
}

export async function bulkDelete(ids: number[]): Promise<Outcome[]> {
  const deleted = await store.deleteShippingMethods(ids);
  const reported = new Set<number>();
  return ids.map((id) => {
    const method = deleted.get(id);
    // An id listed twice is deleted once; the repeat reports not found, as a second request would.
    if (!method || reported.has(id)) return { id, error: NOT_FOUND };
    reported.add(id);
    return { id, object: method };
  });
}
