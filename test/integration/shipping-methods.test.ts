import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from '../support/api.ts';
import { createOwnTable, dropOwnTable } from '../support/fuzz-table.ts';
import { adminToken } from '../support/tokens.ts';

// Before any import reads it (shared/data/client.ts): this file's own table. The list and its totalCount are of every
// shipping method there is, and other files create some (checkouts, reservations, the answer checks) while this one
// runs beside them: here the list holds only this file's, so its counts and pages are exact.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-shipping-methods-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

const BASE = '/api/v2/shipping-method';
let token: string;

beforeAll(async () => {
  await createOwnTable(table.name);
  token = await adminToken();
}, 60_000);

afterAll(async () => {
  await dropOwnTable(table.name);
  if (table.previous === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = table.previous;
});

const as = (options: Parameters<typeof call>[2] = {}) => ({ token, ...options });

async function create(fields: Record<string, unknown> = {}) {
  const response = await call(
    'POST',
    `${BASE}?result=object`,
    as({ body: { name: `Method ${randomUUID()}`, ...fields } }),
  );
  expect(response.status).toBe(201);
  return response.body.data as { id: number; name: string } & Record<string, unknown>;
}

describe('shipping methods: single routes', () => {
  it('creates with defaults and answers in each result format', async () => {
    const full = await create({ charge: 4.5, chargeType: 'per_ticket' });
    expect(full).toMatchObject({
      charge: 4.5,
      chargeType: 'per_ticket',
      description: '',
      hasETickets: false,
      twoPlusCharge: 0,
    });
    expect(full.id).toBeGreaterThan(0);

    const byId = await call('POST', BASE, as({ body: { name: 'Default result' } }));
    expect(byId.status).toBe(201);
    expect(byId.body).toEqual({ count: 1, data: expect.any(Number) });

    const none = await call('POST', `${BASE}?result=none`, as({ body: { name: 'No result' } }));
    expect(none.status).toBe(204);
    expect(none.raw).toBe('');
  });

  it('reads one by id and answers 404 for an unknown id', async () => {
    const made = await create();
    const read = await call('GET', `${BASE}/${made.id}`, as());
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ count: 1, data: made });

    const missing = await call('GET', `${BASE}/987654321`, as());
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('application/problem+json');
    expect(missing.body).toMatchObject({ status: 404, title: 'Not found', type: '/problems/not-found' });
  });

  it('patches only the given fields, in each result format', async () => {
    const made = await create({ description: 'before' });
    const object = await call(
      'PATCH',
      `${BASE}/${made.id}?result=object`,
      as({ body: { charge: 7.25, hasBadges: true } }),
    );
    expect(object.status).toBe(200);
    expect(object.body.data).toMatchObject({
      id: made.id,
      name: made.name,
      description: 'before',
      charge: 7.25,
      hasBadges: true,
    });

    const id = await call('PATCH', `${BASE}/${made.id}`, as({ body: { name: 'Renamed' } }));
    expect(id.body).toEqual({ count: 1, data: made.id });
    const none = await call('PATCH', `${BASE}/${made.id}?result=none`, as({ body: { description: 'after' } }));
    expect(none.status).toBe(204);

    const read = await call('GET', `${BASE}/${made.id}`, as());
    expect(read.body.data).toMatchObject({ name: 'Renamed', description: 'after', charge: 7.25 });
  });

  it('refuses a patch with an unknown field or a wrong type, naming the field, and changes nothing', async () => {
    const made = await create({ charge: 1 });
    const unknown = await call('PATCH', `${BASE}/${made.id}`, as({ body: { charge: 2, colour: 'red' } }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ path: 'body.colour', message: 'Unknown field.' }]);

    const wrongType = await call('PATCH', `${BASE}/${made.id}`, as({ body: { charge: 'ten' } }));
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0].path).toBe('body.charge');

    expect((await call('GET', `${BASE}/${made.id}`, as())).body.data.charge).toBe(1);
  });

  it('answers 404 when patching or deleting an unknown id', async () => {
    expect((await call('PATCH', `${BASE}/987654321`, as({ body: { charge: 1 } }))).status).toBe(404);
    expect((await call('DELETE', `${BASE}/987654321`, as())).status).toBe(404);
  });

  it('deletes in each result format, and a deleted method is gone', async () => {
    const [a, b, c] = [await create(), await create(), await create()];
    const object = await call('DELETE', `${BASE}/${a.id}?result=object`, as());
    expect(object.body).toEqual({ count: 1, data: a });
    expect((await call('DELETE', `${BASE}/${b.id}`, as())).body).toEqual({ count: 1, data: b.id });
    expect((await call('DELETE', `${BASE}/${c.id}?result=none`, as())).status).toBe(204);
    for (const gone of [a, b, c]) expect((await call('GET', `${BASE}/${gone.id}`, as())).status).toBe(404);
  });

  it('refuses a non-numeric id and an unknown result format', async () => {
    expect((await call('GET', `${BASE}/abc`, as())).status).toBe(400);
    const badResult = await call('POST', `${BASE}?result=everything`, as({ body: { name: 'x' } }));
    expect(badResult.status).toBe(400);
    expect(badResult.body.errors[0].path).toBe('query.result');
  });

  it('refuses amounts finer than cents with a 400 naming the field, even 5e-324, and keeps whole cents', async () => {
    // 5e-324 is valid JSON that DynamoDB cannot store: it was a 500 until the fuzzing found it.
    for (const charge of [5e-324, 1e-200, 0.001, 4.999]) {
      const created = await call('POST', BASE, as({ body: { name: `Method ${randomUUID()}`, charge } }));
      expect(created.status, String(charge)).toBe(400);
      expect(created.body.errors[0]).toEqual({ path: 'body.charge', message: 'must have at most 2 decimal places' });
    }
    const method = await create({ charge: 19.99, twoPlusCharge: 0.07 });
    expect(method).toMatchObject({ charge: 19.99, twoPlusCharge: 0.07 });
    const patched = await call('PATCH', `${BASE}/${method.id}`, as({ body: { twoPlusCharge: 1.5e-300 } }));
    expect(patched.status).toBe(400);
    expect(patched.body.errors[0].path).toBe('body.twoPlusCharge');
  });

  it('answers 415 for a non-JSON body and 400 for malformed or missing JSON', async () => {
    const form = await call(
      'POST',
      BASE,
      as({ body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    );
    expect(form.status).toBe(415);
    const malformed = await call(
      'POST',
      BASE,
      as({ body: '{"name":', headers: { 'content-type': 'application/json' } }),
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.detail).toMatch(/not valid JSON/);
    const missing = await call('POST', BASE, as({ headers: { 'content-type': 'application/json' } }));
    expect(missing.status).toBe(400);
  });
});

describe('shipping methods: stage-wide', () => {
  it('are read but never changed by an administrator limited to some events, even holding shipping:write', async () => {
    const method = await create({ charge: 4 });
    const scoped = await adminToken(undefined, 999_004, { eventScope: [1] });
    const refusals = await Promise.all([
      call('POST', BASE, { token: scoped, body: { name: 'Mallory post' } }),
      call('PATCH', `${BASE}/${method.id}`, { token: scoped, body: { charge: 0 } }),
      call('DELETE', `${BASE}/${method.id}`, { token: scoped }),
      call('POST', `${BASE}/bulk-create`, { token: scoped, body: { count: 1, data: [{ name: 'Mallory post' }] } }),
      call('POST', `${BASE}/bulk-update`, { token: scoped, body: { count: 1, data: [{ id: method.id, charge: 0 }] } }),
      call('POST', `${BASE}/bulk-delete`, { token: scoped, body: { count: 1, data: [method.id] } }),
    ]);
    for (const refused of refusals) {
      expect(refused.status, refused.raw).toBe(403);
      expect(refused.body.detail).toContain('"shipping:write" permission is stage-wide');
    }
    const read = await call('GET', `${BASE}/${method.id}`, { token: scoped });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(method);
  });
});

describe('shipping methods: list', () => {
  it('pages by _limit and _offset with a right totalCount', async () => {
    for (let i = 0; i < 3; i++) await create();
    const first = await call('GET', `${BASE}?_limit=2&_offset=0`, as());
    expect(first.status).toBe(200);
    const total = first.body.totalCount;
    expect(total).toBeGreaterThanOrEqual(3);
    expect(first.body).toMatchObject({ count: 2, limit: 2, offset: 0 });

    const all = await call('GET', `${BASE}?_limit=100`, as());
    expect(all.body.totalCount).toBe(total);
    expect(all.body.count).toBe(Math.min(total, 100));
    const second = await call('GET', `${BASE}?_limit=2&_offset=1`, as());
    expect(second.body.data[0]).toEqual(first.body.data[1]);
    const ids = all.body.data.map((method: { id: number }) => method.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));

    const past = await call('GET', `${BASE}?_offset=${total}`, as());
    expect(past.body).toMatchObject({ totalCount: total, count: 0, data: [] });
  });

  it('defaults to 25 per page and refuses a _limit above 100, naming the maximum', async () => {
    const page = await call('GET', BASE, as());
    expect(page.body).toMatchObject({ limit: 25, offset: 0 });
    const tooMany = await call('GET', `${BASE}?_limit=101`, as());
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([{ path: 'query._limit', message: '_limit must be at most 100' }]);
    expect((await call('GET', `${BASE}?_offset=-1`, as())).status).toBe(400);
    expect((await call('GET', `${BASE}?sort=name`, as())).status).toBe(400);
  });

  it('searches by name, case-insensitively, with totalCount counting the matches', async () => {
    const tag = randomUUID().slice(0, 8);
    await create({ name: `Courier ${tag} North` });
    await create({ name: `courier ${tag.toUpperCase()} South` });
    await create({ name: `Post ${randomUUID()}` });
    const found = await call('GET', `${BASE}?name=${tag}&_limit=1`, as());
    expect(found.body).toMatchObject({ totalCount: 2, count: 1, limit: 1 });
    const rest = await call('GET', `${BASE}?name=${tag}&_offset=1`, as());
    expect(rest.body.count).toBe(1);
    expect(rest.body.data[0].name).not.toBe(found.body.data[0].name);
  });

  it('counts creates and deletes in totalCount', async () => {
    const before = (await call('GET', `${BASE}?_limit=1`, as())).body.totalCount;
    const made = await create();
    expect((await call('GET', `${BASE}?_limit=1`, as())).body.totalCount).toBe(before + 1);
    await call('DELETE', `${BASE}/${made.id}`, as());
    expect((await call('GET', `${BASE}?_limit=1`, as())).body.totalCount).toBe(before);
  });
});

describe('shipping methods: bulk', () => {
  it('reads many, reporting unknown ids without failing the rest', async () => {
    const [a, b] = [await create(), await create()];
    const response = await call('POST', `${BASE}/bulk-read`, as({ body: { count: 3, data: [a.id, 987654321, b.id] } }));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      count: 3,
      data: [
        { id: a.id, status: 'ok', object: a },
        { id: 987654321, status: 'error', error: 'not found' },
        { id: b.id, status: 'ok', object: b },
      ],
    });
  });

  it('creates the valid items when one item is bad', async () => {
    const response = await call(
      'POST',
      `${BASE}/bulk-create?result=object`,
      as({
        body: {
          count: 3,
          data: [{ name: 'Bulk one' }, { name: '', charge: -1 }, { name: 'Bulk three', hasBadges: true }],
        },
      }),
    );
    expect(response.status).toBe(200);
    const [one, bad, three] = response.body.data;
    expect(one).toMatchObject({ status: 'ok', object: { name: 'Bulk one' } });
    expect(bad).toMatchObject({ id: null, status: 'error' });
    expect(bad.error).toMatch(/name/);
    expect(bad.error).toMatch(/charge/);
    expect(three).toMatchObject({ status: 'ok', object: { name: 'Bulk three', hasBadges: true } });
    expect((await call('GET', `${BASE}/${three.id}`, as())).body.data.name).toBe('Bulk three');
  });

  it('answers ids only by default and nothing with result=none', async () => {
    const ids = await call('POST', `${BASE}/bulk-create`, as({ body: { count: 1, data: [{ name: 'Ids only' }] } }));
    expect(ids.body.data).toEqual([{ id: expect.any(Number), status: 'ok' }]);
    const none = await call(
      'POST',
      `${BASE}/bulk-create?result=none`,
      as({ body: { count: 1, data: [{ name: 'Silent' }] } }),
    );
    expect(none.status).toBe(204);
  });

  it('updates each item on its own: unknown ids and bad data fail alone', async () => {
    const [a, b] = [await create(), await create()];
    const response = await call(
      'POST',
      `${BASE}/bulk-update?result=object`,
      as({
        body: {
          count: 4,
          data: [
            { id: a.id, data: { charge: 3 } },
            { id: 987654321, data: { charge: 3 } },
            { id: b.id, data: { colour: 'red' } },
            { data: { charge: 1 } },
          ],
        },
      }),
    );
    const [ok, missing, invalid, noId] = response.body.data;
    expect(ok).toMatchObject({ id: a.id, status: 'ok', object: { charge: 3 } });
    expect(missing).toMatchObject({ id: 987654321, status: 'error', error: expect.stringMatching(/not found/) });
    expect(invalid).toMatchObject({ id: b.id, status: 'error' });
    expect(noId).toMatchObject({ id: null, status: 'error' });
    expect((await call('GET', `${BASE}/${b.id}`, as())).body.data).toEqual(b);
  });

  it('deletes many, reporting unknown ids, and moves totalCount by the number deleted', async () => {
    const [a, b] = [await create(), await create()];
    const before = (await call('GET', `${BASE}?_limit=1`, as())).body.totalCount;
    const response = await call(
      'POST',
      `${BASE}/bulk-delete?result=object`,
      as({ body: { count: 3, data: [a.id, 987654321, b.id] } }),
    );
    expect(response.body.data).toEqual([
      { id: a.id, status: 'ok', object: a },
      { id: 987654321, status: 'error', error: 'not found' },
      { id: b.id, status: 'ok', object: b },
    ]);
    expect((await call('GET', `${BASE}?_limit=1`, as())).body.totalCount).toBe(before - 2);
  });

  it('refuses more than 100 items, a count that does not match, and an empty list', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => i + 1);
    const tooMany = await call('POST', `${BASE}/bulk-read`, as({ body: { count: 101, data: ids } }));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([{ path: 'body.data', message: 'must hold at most 100 items' }]);
    const mismatch = await call('POST', `${BASE}/bulk-delete`, as({ body: { count: 5, data: [1] } }));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors[0].path).toBe('body.count');
    expect((await call('POST', `${BASE}/bulk-read`, as({ body: { count: 0, data: [] } }))).status).toBe(400);
  });
});
