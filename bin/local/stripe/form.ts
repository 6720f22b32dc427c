/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracketed keys
 * (`metadata[orderId]=7`, `payment_method_types[0]=card`), as the SDK and Stripe.js send it.
 * Decoded into nested objects; a run of numeric keys from 0 becomes an array.
 */
import type { IncomingMessage } from 'node:http';
import { invalidParameter, invalidRequest, missingParam, unknownParam } from './errors.ts';

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = Record<string, FormValue>;

const MAX_BODY = 64 * 1024;

/** A request's body, refused past 64 KiB. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw invalidRequest('The request body is too large.', {}, 413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

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

// The parameters' checks every endpoint shares: Stripe's answers to an unknown, mistyped or missing one.

export function onlyKnown(form: Form, known: readonly string[]): void {
  for (const key of Object.keys(form)) if (!known.includes(key)) throw unknownParam(key);
}

export function text(form: Form, name: string): string | undefined {
  const value = form[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidParameter(`Invalid string: ${name}`, { param: name });
  return value;
}

export function positiveInteger(form: Form, name: string): number {
  const value = text(form, name);
  if (value === undefined) throw missingParam(name);
  if (!/^\d+$/.test(value))
    throw invalidParameter(`Invalid integer: ${value}`, { code: 'parameter_invalid_integer', param: name });
  return Number(value);
}

export function metadata(value: FormValue | undefined): Record<string, string> {
  if (value === undefined || value === '') return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidParameter('Invalid object', { param: 'metadata' });
  const entries = Object.entries(value);
  if (entries.length > 50) throw invalidParameter('Metadata can have at most 50 keys.', { param: 'metadata' });
  for (const [key, item] of entries) {
    if (typeof item !== 'string' || key.length > 40 || item.length > 500)
      throw invalidParameter(`Invalid metadata value or key: ${key}`, { param: `metadata[${key}]` });
  }
  return value as Record<string, string>;
}
