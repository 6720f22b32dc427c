import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createShippingMethods } from '#shared/selling/data/shipping-methods';
import { MAX_SHIPPING_METHODS } from '#shared/selling/domain/shipping-method';
import { call } from '../support/api.ts';
import { countReads } from '../support/dynamo-reads.ts';
import { createOwnTable, dropOwnTable } from '../support/fuzz-table.ts';
import { adminToken } from '../support/tokens.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so it can hold the most methods there may be.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-shipping-limit-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

const BASE = '/api/v2/shipping-method';
let token: string;
const as = (options: Parameters<typeof call>[2] = {}) => ({ token, ...options });
const total = async () => (await call('GET', `${BASE}?_limit=1`, as())).body.totalCount as number;

beforeAll(async () => {
  await createOwnTable(table.name);
  token = await adminToken();
  // One short of the cap, so the first create fills it.
  await createShippingMethods(
    Array.from({ length: MAX_SHIPPING_METHODS - 1 }, (_, i) => ({
      name: i % 50 === 0 ? `Courier ${i}` : `Post ${i}`,
      description: '',
      charge: 1,
      twoPlusCharge: 0,
      chargeType: 'per_order' as const,
      hasETickets: false,
      requiresShippingInfo: false,
      allowInternational: false,
      hasBadges: false,
    })),
  );
}, 60_000);

afterAll(async () => {
  await dropOwnTable(table.name);
  if (table.previous === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = table.previous;
});

describe(`shipping methods: at most ${MAX_SHIPPING_METHODS}`, () => {
  it('creates up to the cap, then answers 409 too_many_shipping_methods and changes nothing; a delete makes room again', async () => {
    // The other test adds nothing: the table holds one short of the cap here, whichever runs first.
    const last = await call('POST', `${BASE}?result=object`, as({ body: { name: 'The last one' } }));
    expect(last.status, last.raw).toBe(201);
    expect(await total()).toBe(MAX_SHIPPING_METHODS);

    const refused = await call('POST', BASE, as({ body: { name: 'One too many' } }));
    expect(refused.status, refused.raw).toBe(409);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.body).toMatchObject({ reason: 'too_many_shipping_methods' });
    expect(refused.body.detail).toContain(`At most ${MAX_SHIPPING_METHODS} shipping methods`);
    expect(await total()).toBe(MAX_SHIPPING_METHODS);
    expect((await call('GET', `${BASE}?name=one too many`, as())).body.totalCount).toBe(0);

    // A bulk-create past the cap: each valid item fails alone, saying why; an invalid one keeps its own error.
    const bulk = await call(
      'POST',
      `${BASE}/bulk-create`,
      as({ body: { count: 2, data: [{ name: 'Bulk past the cap' }, { name: '' }] } }),
    );
    expect(bulk.status, bulk.raw).toBe(200);
    expect(bulk.body.data[0]).toMatchObject({ id: null, status: 'error', error: expect.stringContaining('At most') });
    expect(bulk.body.data[1]).toMatchObject({ id: null, status: 'error', error: expect.stringContaining('name') });
    expect(await total()).toBe(MAX_SHIPPING_METHODS);

    expect((await call('DELETE', `${BASE}/${last.body.data.id}`, as())).status).toBe(200);
    expect((await call('POST', BASE, as({ body: { name: 'Room again' } }))).status).toBe(201);
    expect(await total()).toBe(MAX_SHIPPING_METHODS);
  });

  it('reads at most the cap for a name search, and a page and the count for a page, with the table (nearly) full', async () => {
    const methods = await total();
    expect(methods).toBeGreaterThanOrEqual(MAX_SHIPPING_METHODS - 1);
    const search = await countReads(() => call('GET', `${BASE}?name=courier&_limit=2&_offset=1`, as()));
    expect(search.result.body).toMatchObject({ totalCount: 10, count: 2, offset: 1 });
    expect(search.reads.itemsRead).toBeLessThanOrEqual(MAX_SHIPPING_METHODS + 1);
    expect(search.reads.queriesWithoutLimit).toBe(0);

    const page = await countReads(() => call('GET', `${BASE}?_limit=25&_offset=50`, as()));
    expect(page.result.body).toMatchObject({ totalCount: methods, count: 25 });
    // 75 methods and the count item (and the session check's read).
    expect(page.reads.itemsRead).toBeLessThanOrEqual(75 + 2);

    const deep = await countReads(() => call('GET', `${BASE}?_limit=100&_offset=10000`, as()));
    expect(deep.result.body).toMatchObject({ totalCount: methods, count: 0 });
    expect(deep.reads.itemsRead).toBeLessThanOrEqual(MAX_SHIPPING_METHODS + 2);
    expect(deep.reads.queriesWithoutLimit).toBe(0);
  });
});
