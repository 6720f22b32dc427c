/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracketed keys
 * (`metadata[orderId]=7`, `payment_method_types[0]=card`), as the SDK and Stripe.js send it.
 * Decoded into nested objects; a run of numeric keys from 0 becomes an array.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = Record<string, FormValue>;

export function decodeForm(text: string): Form {
  const root: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const parts = name.split(/\[|\]\[|\]$/).filter((part, i) => i === 0 || part !== '');
    let node = root;
    for (const [i, part] of parts.entries()) {
      if (i === parts.length - 1) node[part] = value;
      else {
        node[part] ??= {};
        node = node[part] as Record<string, unknown>;
      }
    }
  }
  return arrays(root) as Form;
}

function arrays(node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).map(([key, value]) => [key, arrays(value)] as const);
  const indexed = entries.length > 0 && entries.every(([key], i) => key === String(i));
  return indexed ? entries.map(([, value]) => value) : Object.fromEntries(entries);
}

/** A stable text of decoded parameters: an idempotency key's replay must bring the same ones. */
export function fingerprint(form: Form): string {
  const sorted = (value: unknown): unknown =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([key, item]) => [key, sorted(item)]),
        )
      : Array.isArray(value)
        ? value.map(sorted)
        : value;
  return JSON.stringify(sorted(form));
}
