import { describe, expect, it } from 'vitest';
import { checkAnswer, DATE_TIME, type Answer } from '../support/openapi-check.ts';

/**
 * The integration suite's answer check (test/support/openapi-check.ts, run on every
 * `call()`): here against hand-made answers, so a check that silently passes everything
 * would fail this file.
 */

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  body,
  raw: JSON.stringify(body),
});
const problem = (status: number, extra: Record<string, unknown> = {}) => ({
  type: '/problems/x',
  title: 'X',
  status,
  detail: 'x',
  instance: '/api/v2/x',
  ...extra,
});
const checkIn = { method: 'POST', path: '/tickets/{id}/check-in' } as const;
const me2 = { method: 'GET', path: '/auth/me2' } as const;

// The checks build the document's validators on first use: seconds on a loaded machine, not a test's 5.
describe('the OpenAPI answer check', { timeout: 60_000 }, () => {
  it('passes a documented problem answer', async () => {
    await expect(checkAnswer(checkIn, '/api/v2/tickets/1/check-in', json(404, problem(404)))).resolves.toBeUndefined();
    await expect(
      checkAnswer(checkIn, '/api/v2/tickets/1/check-in', json(409, problem(409, { reason: 'already_checked_in' }))),
    ).resolves.toBeUndefined();
  }, 60_000);

  it('fails a status the operation does not document, naming method, path and status', async () => {
    await expect(checkAnswer(me2, '/api/v2/auth/me2', json(409, problem(409, { reason: 'x' })))).rejects.toThrow(
      /OpenAPI: GET \/api\/v2\/auth\/me2 answered 409, a status its operation does not document/,
    );
  });

  it('fails a body, a content type or a reason that is not as documented', async () => {
    await expect(
      checkAnswer(checkIn, '/api/v2/tickets/1/check-in', json(200, { data: { id: 'one' } })),
    ).rejects.toThrow(/body/);
    await expect(
      checkAnswer(checkIn, '/api/v2/tickets/1/check-in', {
        ...json(404, problem(404)),
        headers: { 'content-type': 'text/plain' },
      }),
    ).rejects.toThrow(/content-type text\/plain/);
    await expect(
      checkAnswer(checkIn, '/api/v2/tickets/1/check-in', json(409, problem(409, { reason: 'made_up' }))),
    ).rejects.toThrow(/reason/);
  });

  it("fails the API's own 429 or a 503 without Retry-After, and a deprecated route's success without Deprecation", async () => {
    await expect(checkAnswer(checkIn, '/api/v2/tickets/1/check-in', json(503, problem(503)))).rejects.toThrow(
      /no Retry-After/,
    );
    await expect(checkAnswer(checkIn, '/api/v2/tickets/1/check-in', json(429, problem(429)))).rejects.toThrow(
      /no Retry-After/,
    );
    await expect(
      checkAnswer(checkIn, '/api/v2/tickets/1/check-in', json(503, problem(503), { 'retry-after': '2' })),
    ).resolves.toBeUndefined();
    await expect(checkAnswer(me2, '/api/v2/auth/me2', json(401, problem(401)))).resolves.toBeUndefined();
    await expect(checkAnswer(me2, '/api/v2/auth/me2', json(200, { data: {} }))).rejects.toThrow(/Deprecation/);
  });
});

describe('the one date rule (README "Conventions the spec leaves open")', () => {
  const claimInfo = { method: 'GET', path: '/ticket/{ticketId}/claim-info' } as const;
  const info = (sentAt: string) => ({
    count: 1,
    data: {
      ticketId: 1,
      isAClaim: true,
      isClaimed: false,
      state: 'open',
      claimantEmail: 'a@b.test',
      claimantUserId: '',
      sentAt,
      claimedAt: null,
    },
  });

  it('accepts an instant as toISOString writes it, and an event-local time with its offset', () => {
    for (const value of ['2026-05-01T10:00:00.000Z', '2026-05-01T12:00:00+02:00', '2026-01-01T00:00:00-05:00'])
      expect(DATE_TIME.test(value), value).toBe(true);
    for (const value of [
      '2026-05-01T10:00:00Z',
      '2026-05-01T10:00:00.5Z',
      '2026-05-01 10:00:00.000Z',
      '2026-05-01T10:00:00.000+02:00',
      '2026-05-01',
      '1714557600',
    ]) {
      expect(DATE_TIME.test(value), value).toBe(false);
    }
  });

  it('holds every date-time field of an answer to it', async () => {
    await expect(
      checkAnswer(claimInfo, '/api/v2/ticket/1/claim-info', json(200, info('2026-05-01T10:00:00.000Z'))),
    ).resolves.toBeUndefined();
    await expect(
      checkAnswer(claimInfo, '/api/v2/ticket/1/claim-info', json(200, info('2026-05-01T10:00:00Z'))),
    ).rejects.toThrow(/sentAt|date-time|format/);
  }, 60_000);
});
