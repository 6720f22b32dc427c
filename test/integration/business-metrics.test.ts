import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { METRIC, METRICS_NAMESPACE, metrics, publishRecorded, recordCheckIn } from '#shared/services/metrics';
import { seedEvent } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { login as customerLogin } from '../support/customers.ts';
import { ALLOWED_ORIGIN } from '../support/env.ts';
import { checkIn, oneTicket, readStats } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';
import { newAddress } from '../support/mail.ts';
import { legacyLogin, makeAdmin, useSiteAuthMethod } from '../support/staff.ts';

/**
 * What the middy stack publishes per request, read at the moment it publishes: the EMF
 * document Powertools would print (printing is off in tests, POWERTOOLS_METRICS_DISABLED).
 * A use case that stops recording, or a stack that stops flushing, leaves this empty.
 */
type Emf = Record<string, any> & {
  _aws: {
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
  };
};
let published: Emf[] = [];

beforeEach(() => {
  published = [];
  const publish = metrics.publishStoredMetrics.bind(metrics);
  vi.spyOn(metrics, 'publishStoredMetrics').mockImplementation(() => {
    published.push(metrics.serializeMetrics() as Emf);
    return publish();
  });
});
afterEach(() => vi.restoreAllMocks());

/** The published documents that carry `name`, as `{dimension: value}` plus the value. */
function recorded(name: string) {
  return published
    .filter((emf) => emf._aws.CloudWatchMetrics[0]!.Metrics.some((metric) => metric.Name === name))
    .map((emf) => {
      const [directive] = emf._aws.CloudWatchMetrics;
      expect(directive!.Namespace).toBe(METRICS_NAMESPACE);
      expect(directive!.Dimensions).toHaveLength(1);
      const dimensions = Object.fromEntries(directive!.Dimensions[0]!.map((key) => [key, emf[key]]));
      return { dimensions, value: emf[name], reason: emf.reason };
    });
}

describe('check-in metrics', () => {
  let token: string;
  beforeAll(async () => {
    token = await adminToken(['checkin:scan']);
  });

  it('counts an admitted scan, then the second scan as refused with its reason', async () => {
    const { ticket } = await oneTicket();

    expect((await checkIn(token, ticket.id)).status).toBe(200);
    expect(recorded(METRIC.checkInAdmitted)).toEqual([
      { dimensions: { service: expect.any(String), stage: 'test' }, value: 1, reason: undefined },
    ]);
    expect(recorded(METRIC.checkInRefused)).toEqual([]);

    published = [];
    expect((await checkIn(token, ticket.id)).status).toBe(409);
    expect(recorded(METRIC.checkInRefused)).toEqual([
      {
        dimensions: { service: expect.any(String), stage: 'test', reason: 'already_checked_in' },
        value: 1,
        reason: 'already_checked_in',
      },
    ]);
    expect(recorded(METRIC.checkInAdmitted)).toEqual([]);
  });

  it('does not count an idempotent retry of an admitted scan again', async () => {
    const { ticket } = await oneTicket();
    const key = randomUUID();
    expect((await checkIn(token, ticket.id, { key })).status).toBe(200);
    expect((await checkIn(token, ticket.id, { key })).status).toBe(200);
    expect(recorded(METRIC.checkInAdmitted)).toHaveLength(1);
    expect(recorded(METRIC.checkInRefused)).toEqual([]);
  });

  it('publishes nothing for requests that record nothing: a read, and a scan of a ticket that does not exist', async () => {
    const event = await seedEvent();
    expect(await readStats(await adminToken(['tickets:read']), event.id)).toMatchObject({ eventIds: [event.id] });
    expect((await checkIn(token, 987_654_321)).status).toBe(404);
    expect(published).toEqual([]);
  });
});

describe('one request, several outcomes', () => {
  it("publishes metrics with different dimensions on separate lines, so none takes the other's dimensions", async () => {
    recordCheckIn({ admitted: false, reason: 'cancelled' });
    recordCheckIn({ admitted: false, reason: 'cancelled' });
    recordCheckIn({ admitted: false, reason: 'withdrawn' });
    recordCheckIn({ admitted: true });
    publishRecorded();
    expect(recorded(METRIC.checkInRefused).map(({ dimensions, value }) => [dimensions.reason, value])).toEqual([
      ['cancelled', [1, 1]],
      ['withdrawn', 1],
    ]);
    expect(recorded(METRIC.checkInAdmitted)).toEqual([
      { dimensions: { service: expect.any(String), stage: 'test' }, value: 1, reason: undefined },
    ]);
    expect(metrics.hasStoredMetrics()).toBe(false);
  });
});

describe('failed login metrics', () => {
  const loginDimension = (login: string) => ({ service: expect.any(String), stage: 'test', login });

  it('counts a wrong legacy password as a failed legacy login', async () => {
    const { login } = await makeAdmin({ password: 'the-right-password' });
    const response = await legacyLogin(login, 'a-wrong-password');
    expect(response.status).toBe(401);
    expect(recorded(METRIC.loginFailed)).toEqual([
      { dimensions: loginDimension('legacy'), value: 1, reason: 'wrong_credentials' },
    ]);
  });

  it('does not count a successful legacy login', async () => {
    const { login } = await makeAdmin({ password: 'the-right-password' });
    expect((await legacyLogin(login, 'the-right-password')).status).toBe(200);
    expect(recorded(METRIC.loginFailed)).toEqual([]);
  });

  it('counts a customer login with an unknown address as a failed customer login', async () => {
    const response = await customerLogin(newAddress('metrics'), 'Not-the-password-1');
    expect(response.status).toBe(401);
    expect(recorded(METRIC.loginFailed)).toEqual([
      { dimensions: loginDimension('customer'), value: 1, reason: 'unauthenticated' },
    ]);
  });

  describe('identity-provider callback', () => {
    beforeAll(() => useSiteAuthMethod('idp'));
    afterAll(() => useSiteAuthMethod('legacy'));

    it('counts a forged state as a failed idp login', async () => {
      const response = await call('GET', '/api/v2/auth/callback?code=abc&state=forged');
      expect(response.status).toBe(302);
      expect(recorded(METRIC.loginFailed)).toEqual([
        { dimensions: loginDimension('idp'), value: 1, reason: 'invalid_state' },
      ]);
    });

    it('counts a vendor login turned down at the hosted UI as a failed vendor login', async () => {
      const begun = await call('POST', '/api/v2/auth/vendor/login', {
        body: { redirect_uri: `${ALLOWED_ORIGIN}/after-login` },
      });
      expect(begun.status, begun.raw).toBe(200);
      const state = new URL(begun.body.data.auth_url).searchParams.get('state')!;
      // The login cookie binds the state to this browser (login-state.ts); the callback needs it back.
      const browser = begun.cookies[0]!.split(';')[0]!;
      published = [];
      const response = await call(
        'GET',
        `/api/v2/auth/callback?${new URLSearchParams({ state, error: 'access_denied' })}`,
        { cookies: [browser] },
      );
      expect(response.status).toBe(302);
      expect(recorded(METRIC.loginFailed)).toEqual([
        { dimensions: loginDimension('vendor'), value: 1, reason: 'access_denied' },
      ]);
    });
  });
});
