import { randomInt, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { EventResource } from '#shared/events/contract/event';
import { call, getPage } from './api.ts';
import { unusedCustomerId } from './customers.ts';
import { adminToken, customerToken } from './tokens.ts';

/** The events routes' tests' helpers (test/integration/events*.test.ts): bodies, a creation, a patch, the portal's list. */
export const BASE = '/api/v2/events';
let unscoped: Promise<string> | undefined;
/** An unscoped administrator holding every permission. */
export const staff = (): Promise<string> => (unscoped ??= adminToken());

const DAY = 86_400_000;
/** A start window of ten days unique to the test, far in the future (the portal's published list is shared). */
export function newWindow() {
  const from = Date.UTC(2400, 0, 1) + randomInt(0, 2_000_000) * DAY;
  return {
    from: new Date(from).toISOString(),
    to: new Date(from + 10 * DAY).toISOString(),
    at: (day: number) => new Date(from + day * DAY + 9 * 3_600_000).toISOString(),
  };
}

export const eventBody = (fields: Record<string, unknown> = {}) => ({
  title: `Concert ${randomUUID().slice(0, 8)}`,
  start: newWindow().at(1),
  timezone: 'Europe/London',
  currency: 'EUR',
  ...fields,
});

export type EventView = ReturnType<typeof EventResource.parse>;

/** `POST /events`, expected 201: the answered event. */
export async function createEventByApi(fields: Record<string, unknown> = {}, token?: string): Promise<EventView> {
  const response = await call('POST', BASE, { token: token ?? (await staff()), body: eventBody(fields) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  expect(response.body.count).toBe(1);
  return EventResource.parse(response.body.data);
}

export const patchEvent = async (id: number, fields: Record<string, unknown>, token?: string) =>
  call('PATCH', `${BASE}/${id}`, { token: token ?? (await staff()), body: fields });

/** The portal's event list as a customer holding no orders sees it. */
export const portalEvents = async (query: string) =>
  getPage<{ id: string; title: string }>(`/api/v2/my-account/event?${query}`, await customerToken(unusedCustomerId()));

export const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);
