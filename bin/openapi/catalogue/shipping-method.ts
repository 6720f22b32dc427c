import { MAX_SHIPPING_METHODS } from '#shared/selling/domain/shipping-method';
import { type Entries, md } from './common.ts';

/** The `shipping-method` tag: the choices the spec leaves open for every shipping-method route. */
export const SHIPPING_METHOD_TAG = md(
  'Shipping methods, one by one or in bulk.',
  "They are stage-wide: every event's buyers are offered every method (`GET /my-account/shipping-method`), so the writes need `shipping:write` held by an administrator who reaches every event; one limited to some events is refused (403), and reads them only.",
  `\`chargeType\` (the spec leaves its values open) is \`per_order\` (\`charge\` once per order) or \`per_ticket\` (\`charge\` for the first ticket, \`twoPlusCharge\` for each further one). Amounts are non-negative numbers with at most 2 decimals, at most 1,000,000, else 400; a method is stage-wide and has no currency: a hold converts its charges into the event's currency, and one that currency cannot take (9.5 for a JPY event) refuses the hold (409 \`shipping_charge_not_in_currency\`). A create needs only \`name\`; unknown fields are refused. At most ${MAX_SHIPPING_METHODS} methods exist at once: a create past that is 409 \`too_many_shipping_methods\` (in a bulk-create, each item without room fails alone).`,
  'The write routes take `result=none|id|object` (default `id`): `none` answers 204 with no body, `id` `{count: 1, data: <id>}`, `object` `{count: 1, data: <object>}`; creates answer 201. Bulk routes take `{count, data}` (`count` must equal the number of items, at most 100) and answer `{count, data: [{id, status: "ok"|"error", object?, error?}]}` in request order: each item succeeds or fails on its own, `object` comes with `result=object` (always on bulk-read), and an item of a bulk-create that failed validation has `id: null`.',
);

export const SHIPPING_METHOD = {
  'GET /shipping-method': {
    summary: 'List shipping methods',
    parameters: { name: 'Only methods whose name contains this text (case-insensitive).' },
  },
  'GET /shipping-method/{id}': { summary: 'Get a shipping method' },
  'POST /shipping-method': { summary: 'Create a shipping method', conflicts: ['too_many_shipping_methods'] },
  'PATCH /shipping-method/{id}': { summary: 'Update a shipping method', description: 'Only the fields sent change.' },
  'DELETE /shipping-method/{id}': { summary: 'Delete a shipping method' },
  'POST /shipping-method/bulk-read': {
    summary: 'Read shipping methods by id',
    description: 'One result entry per id, in request order; a missing id fails alone.',
  },
  'POST /shipping-method/bulk-create': {
    summary: 'Create shipping methods',
    description:
      'Each item is a create body, validated on its own: a bad item fails alone (its entry carries `error`).',
  },
  'POST /shipping-method/bulk-update': {
    summary: 'Update shipping methods',
    description: 'Each item is `{ id, data }` with `data` an update body; a bad or missing item fails alone.',
  },
  'POST /shipping-method/bulk-delete': {
    summary: 'Delete shipping methods',
    description: 'One result entry per id; a missing id fails alone.',
  },
} satisfies Entries;
