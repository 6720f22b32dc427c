import { randomUUID } from 'node:crypto';
import { PERMISSIONS } from '#shared/auth/permissions';
import { epochSeconds } from '#shared/clock';
import { allocateIds } from '#shared/data/counters';
import { CUSTOMER_SEQUENCE } from '#shared/identity/use-cases/create-customer';
import { MIN_RESERVATION_MINUTES } from '#shared/selling/domain/reservation';
import { readSecretString } from '#shared/services/secrets';
import { issueToken } from '#shared/identity/services/token-issuer';
import { insertSeededCustomer } from '../seed/customers.ts';
import { send } from './onsale-http.ts';

/**
 * The on-sale rush's preparation (outside the timed section): the event made and published through the API
 * as an organiser makes it, and the buyers' accounts. Sign-up is throttled per network and mails a link, so
 * the buyers are written as the seed writes accounts (the table's customer items, verified, without a
 * Cognito user: no route of the rush signs in) and signed in with the service's own tokens, as the tests' are.
 */
export interface OnSaleTarget {
  /** The API's base URL, `…/api/v2`. */
  apiUrl: string;
  /** The Stripe stand-in (`.local/stack.json` `payments`). */
  payments: { baseUrl: string; webhookUrl: string; publishableKey: string };
}

export interface OnSaleOptions {
  buyers: number;
  tickets: number;
  /** The window the buyers arrive in. */
  seconds: number;
}

export interface PreparedOnSale {
  eventId: number;
  /** The two types, the first with three quarters of the tickets. */
  types: { id: number; total: number }[];
  reservationMinutes: number;
  adminToken: string;
  buyers: { id: number; token: string }[];
  /** The stand-in's secret key, read as the service reads it (the local stage's Stripe secret): for its controls. */
  stripeSecretKey: string;
}

const log = (line: string) => console.error(line);

async function inFlight<T>(count: number, width: number, work: (n: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) {
        const n = next++;
        out[n] = await work(n);
      }
    }),
  );
  return out;
}

async function admin<T>(target: OnSaleTarget, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await send({
    method,
    url: `${target.apiUrl}${path}`,
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() },
    body,
  });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body?.data as T;
}

export async function prepareOnSale(
  target: OnSaleTarget,
  options: OnSaleOptions,
  progress = log,
): Promise<PreparedOnSale> {
  const adminToken = await issueToken({
    kind: 'admin',
    id: 990_058,
    login: 'onsale-organiser',
    permissions: [...PERMISSIONS],
    vendorUser: false,
    authTime: epochSeconds(),
  });
  const first = Math.round(options.tickets * 0.75);
  const event = await admin<{ id: number }>(target, adminToken, 'POST', '/events', {
    title: `On-sale rush ${new Date().toISOString()}`,
    start: '2027-09-01T09:00:00+02:00',
    timezone: 'Europe/Amsterdam',
    currency: 'EUR',
  });
  const types = [];
  for (const [name, total] of [
    ['Runner', first],
    ['Runner plus', options.tickets - first],
  ] as const)
    types.push(
      await admin<{ id: number; total: number }>(target, adminToken, 'POST', `/events/${event.id}/ticket-types`, {
        name,
        price: 25,
        total,
      }),
    );
  // The shortest hold the event allows (1 minute): abandoned reservations come back on sale within the run.
  const current = await admin<{ version: number }>(target, adminToken, 'GET', `/events/${event.id}`);
  await admin(target, adminToken, 'PATCH', `/events/${event.id}`, {
    published: true,
    reservationMinutes: MIN_RESERVATION_MINUTES,
    version: current.version,
  });
  progress(`  event ${event.id}: types ${types.map((t) => `${t.id} (${t.total})`).join(', ')}, published`);

  const started = performance.now();
  const firstId = await allocateIds(CUSTOMER_SEQUENCE, options.buyers);
  const stamp = new Date().toISOString();
  const buyers = await inFlight(options.buyers, 20, async (n) => {
    const id = firstId + n;
    const emailAddress = `buyer-${id}@onsale.test`;
    await insertSeededCustomer({ id, source: 'onsale', emailAddress, name: `Buyer ${id}` }, stamp);
    if ((n + 1) % 2000 === 0)
      progress(`  ${n + 1} buyers (${Math.round((n + 1) / ((performance.now() - started) / 1000))}/s)`);
    return {
      id,
      token: await issueToken({ kind: 'customer', id, email: emailAddress, authTime: epochSeconds() }),
    };
  });
  const stripeSecretKey = (JSON.parse(await readSecretString(process.env.STRIPE_SECRET!)) as { secretKey: string })
    .secretKey;
  return {
    eventId: Number(event.id),
    types: types.map((type) => ({ id: Number(type.id), total: Number(type.total) })),
    reservationMinutes: MIN_RESERVATION_MINUTES,
    adminToken,
    buyers,
    stripeSecretKey,
  };
}
