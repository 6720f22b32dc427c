import { describe, expect, it } from 'vitest';
import { MAX_LISTED_ERRORS } from '#shared/http/problem-details';
import { call } from '../support/api.ts';
import { adminToken } from '../support/tokens.ts';

describe('bounded problem answers', () => {
  it(`a body of 20 000 unknown keys gets at most ${MAX_LISTED_ERRORS} errors and a count of the rest, in a small answer`, async () => {
    const body = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`unknown-${i}`, i]));
    const response = await call('POST', '/api/v2/auth/legacy/login', { body });
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveLength(MAX_LISTED_ERRORS);
    // 20 000 unknown keys, and the two missing fields.
    expect(response.body.errorsNotListed).toBe(20_000 + 2 - MAX_LISTED_ERRORS);
    expect(response.raw.length).toBeLessThan(8 * 1024);
  });

  it('cuts a very long unknown key in the answer', async () => {
    const response = await call('POST', '/api/v2/auth/legacy/login', {
      body: { login: 'a', password: 'b', ['k'.repeat(100_000)]: 1 },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path.length).toBeLessThanOrEqual(200);
    expect(response.raw.length).toBeLessThan(8 * 1024);
  });

  it('answers a short error list as it is, without a count', async () => {
    const response = await call('POST', '/api/v2/auth/legacy/login', { body: { login: 'a' } });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ path: 'body.password', message: expect.any(String) }]);
    expect(response.body).not.toHaveProperty('errorsNotListed');
  });
});

describe('ids in the path and the query', () => {
  it('refuses ids above 2^53 - 1 (and any of more than 15 digits) with a 400, never a rounded lookup', async () => {
    const token = await adminToken();
    for (const id of ['9007199254740993', '9007199254740992', '1'.repeat(40)]) {
      const response = await call('GET', `/api/v2/shipping-method/${id}`, { token });
      expect(response.status, id).toBe(400);
      expect(response.body.errors[0].path).toBe('path.id');
    }
    expect((await call('GET', '/api/v2/shipping-method/999999999999999', { token })).status).toBe(404);
    const query = await call('GET', '/api/v2/ticket?event=9007199254740993', { token });
    expect(query.status).toBe(400);
    expect(query.body.errors.map((error: { path: string }) => error.path)).toContain('query.event');
  });
});

describe('bodies must be UTF-8', () => {
  it('refuses a JSON body with bytes that are not UTF-8 (the gateway made them U+FFFD) with a 400, and stores nothing', async () => {
    const bytes = Buffer.concat([Buffer.from('{"login":"caf'), Buffer.from([0xe9]), Buffer.from('","password":"x"}')]);
    const response = await call('POST', '/api/v2/auth/legacy/login', {
      body: bytes,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.detail).toMatch(/UTF-8/);
  });
});
