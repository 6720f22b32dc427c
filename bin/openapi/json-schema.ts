import * as z from '#shared/schema';
import { ShippingMethodResource } from '#shared/selling/domain/shipping-method';
import { TicketHistoryEntryResource, TicketResource } from '#shared/tickets/domain/ticket-resource';
import { TicketWaiverResource } from '#shared/tickets/contract/tickets';
import { DeliveryResource, WebhookResource } from '#shared/webhooks/domain/webhooks';
import { AdministratorProfileResource } from '#shared/identity/contract/auth';
import { CheckInStatsResource } from '#shared/tickets/contract/tickets';
import { FilePart } from '#shared/http/multipart-form';

/**
 * zod → JSON Schema for the OpenAPI document (document.ts): the named resources as
 * components, and every integer's format from its bounds.
 */

export type JsonSchema = z.core.JSONSchema.BaseSchema;
export type Json = Record<string, unknown>;

/**
 * The resources documented once, as named components, and referenced (`$ref`) wherever
 * an answer holds them. Everything else (the envelopes, the auth answers) is inline.
 */
export const COMPONENTS = {
  Ticket: TicketResource,
  TicketHistoryEntry: TicketHistoryEntryResource,
  TicketWaiver: TicketWaiverResource,
  ShippingMethod: ShippingMethodResource,
  AdministratorProfile: AdministratorProfileResource,
  CheckInStats: CheckInStatsResource,
  Webhook: WebhookResource,
  WebhookDelivery: DeliveryResource,
} as const satisfies Record<string, z.ZodMiniType>;

// The converter extracts a schema registered with an `id` into `$defs` and refers to it there.
for (const [id, schema] of Object.entries(COMPONENTS))
  z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });

const COMPONENT_PATH = '#/components/schemas/';
export const ref = (name: string, kind: 'schemas' | 'headers' = 'schemas') => ({
  $ref: `#/components/${kind}/${name}`,
});

/** The component schemas, filled in as the operations' schemas are converted. */
export type Components = Record<string, JsonSchema>;

/**
 * Zod schema → JSON Schema (draft 2020-12, OpenAPI 3.1's dialect), without the `$schema`
 * key. The named resources it holds move to `components` (one body per name: a name
 * converted to two different bodies, e.g. once as input, is an error).
 */
export function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output', components: Components): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io,
    // A multipart file field is the only schema with no JSON equivalent: document it as binary.
    unrepresentable: ({ zodSchema }) => (zodSchema === FilePart ? { type: 'string', format: 'binary' } : 'throw'),
  });
  const relinked = JSON.stringify(withIntegerFormats(converted)).replaceAll('"#/$defs/', `"${COMPONENT_PATH}`);
  const { $schema: _dialect, $defs, ...rest } = JSON.parse(relinked) as JsonSchema;
  for (const [name, body] of Object.entries($defs ?? {})) {
    const known = components[name];
    if (known && JSON.stringify(known) !== JSON.stringify(body))
      throw new Error(`Two different schemas for the component ${name}.`);
    components[name] = body as JsonSchema;
  }
  return rest;
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/**
 * Every integer's `format`, read from the bounds its zod schema states (`int32` when they
 * fit in 32 bits, else `int64`; zod's `z.int()` is bounded by the safe integers), so a
 * client sizes its fields from the same bounds the validation enforces.
 */
function withIntegerFormats<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withIntegerFormats) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const node = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withIntegerFormats(value)]));
  const types = [node.type].flat();
  if (types.includes('integer') && node.format === undefined) {
    const low = node.minimum ?? node.exclusiveMinimum;
    const high = node.maximum ?? node.exclusiveMaximum;
    const fits = typeof low === 'number' && typeof high === 'number' && low >= INT32.min && high <= INT32.max;
    node.format = fits ? 'int32' : 'int64';
  }
  return node as T;
}
