import fc from 'fast-check';
import { vi } from 'vitest';
import * as z from '#shared/schema';
import { createShippingMethod } from '#shared/selling/data/shipping-methods';
import { NewShippingMethod, ShippingMethodPatch } from '#shared/selling/domain/shipping-method';
import { routes } from '#shared/routes';
import { fromSchema, mutated, type JsonSchema } from '../support/fuzz-inputs.ts';
import { fuzzAdministrator, fuzzFile } from '../support/fuzz-world.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so the before/after comparison sees only its own requests.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-fuzz-shipping-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

const schemaOf = (schema: z.ZodMiniType) => z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;

fuzzFile({
  title: 'shipping methods',
  tableName: table.name,
  previousTableName: table.previous,
  rows: routes.filter((row) => row.path.startsWith('/shipping-method')),
  async seed() {
    const admin = await fuzzAdministrator('shipping');
    const methods = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createShippingMethod(NewShippingMethod.parse({ name: `Fuzz method ${i}`, charge: i })),
      ),
    );
    const ids = methods.map((method) => method.id);
    // The bulk bodies' items are `unknown` in the route schema (each is validated on its own): generate real items.
    const create = fromSchema(schemaOf(NewShippingMethod));
    const update = fc
      .tuple(fromSchema(schemaOf(ShippingMethodPatch)), fc.constantFrom(...ids))
      .map(([patch, id]) => ({ ...(patch as object), id }));
    const bulk = (item: fc.Arbitrary<unknown>) =>
      fc
        .array(fc.oneof(item, mutated(item)), { minLength: 1, maxLength: 5 })
        .map((data) => ({ count: data.length, data }));
    return {
      admin,
      known: { data: [ids], id: ids },
      pathKnown: () => ids,
      bodies: { 'POST /shipping-method/bulk-create': bulk(create), 'POST /shipping-method/bulk-update': bulk(update) },
    };
  },
  meantWrites: [],
});
