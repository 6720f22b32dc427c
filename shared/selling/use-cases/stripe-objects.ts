import type Stripe from 'stripe';
import { logger } from '../../logger.ts';
import * as z from '../../schema.ts';

/**
 * The fields a handler reads of its event's object (Stripe's own objects carry them). Anything else, in a signed
 * event (a null or malformed `data.object`, an intent without its amount), is acknowledged and logged, never a 5xx:
 * Stripe would deliver it again for days, and no delivery could succeed.
 */
export function readObject<T>(event: Stripe.Event, schema: z.ZodMiniType<T>): T | undefined {
  const read = schema.safeParse(event.data?.object);
  if (read.success) return read.data;
  logger.warn('Stripe event with an object it cannot read acknowledged', { eventId: event.id, eventType: event.type });
  return undefined;
}

export const Metadata = z.nullish(z.record(z.string(), z.string()));
/** An expandable reference: Stripe sends the id, or the object when expanded. */
export const Reference = z.nullish(z.union([z.string(), z.looseObject({ id: z.string() })]));
export const Currency = z.lazy(() => z.string().check(z.regex(/^[a-zA-Z]{3}$/)));

/** The id of an expandable reference (none: null). */
export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);
