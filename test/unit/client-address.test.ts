import { afterAll, beforeEach, describe, expect, it } from 'vitest';

import { clientNetwork, networkOf, VIEWER_ADDRESS_HEADER } from '#shared/http/client-address';

import type { RouteEvent } from '#shared/http/request';
import { TEST_ENV } from '../support/env.ts';
import { newContainer } from '../support/container.ts';

const saved = { ...process.env };
const event = (headers: Record<string, string>) =>
  ({
    headers,
    requestContext: { http: { method: 'POST', path: '/', sourceIp: '198.51.100.4' } },
  }) as unknown as RouteEvent;

beforeEach(() => {
  process.env = { ...saved, ...TEST_ENV };
  newContainer();
});
afterAll(() => {
  process.env = saved;
  newContainer();
});

describe('clientNetwork (the per-client limits)', () => {
  it("behind CloudFront (origin check on) is the viewer's address the front end's function set", () => {
    process.env.ORIGIN_VERIFY_SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:origin-verify-AbCdEf';
    newContainer();
    expect(clientNetwork(event({ [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }))).toBe('203.0.113.7');
    expect(clientNetwork(event({}))).toBe('198.51.100.4');
  });

  it('without the origin check ignores the header: any caller could send it', () => {
    expect(process.env.ORIGIN_VERIFY_SECRET).toBe('none');
    expect(clientNetwork(event({ [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }))).toBe('198.51.100.4');
  });
});

describe('networkOf: IPv4 by address, IPv6 by its /64', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::ffff:198.51.100.4', '198.51.100.4'],
    ['::ffff:c633:6404', '198.51.100.4'],
    ['2001:db8:1:2::203.0.113.7', '2001:db8:1:2::/64'],
  ])('%s is counted as %s', (address, network) => {
    expect(networkOf(address)).toBe(network);
  });

  it('gives every address of one /64 the same key and neighbouring /64s different ones', () => {
    const keys = new Set(
      Array.from({ length: 50 }, (_, i) => networkOf(`2001:db8:aa:bb:${i.toString(16)}:${(i * 7).toString(16)}::${i}`)),
    );
    expect([...keys]).toEqual(['2001:db8:aa:bb::/64']);
    expect(networkOf('2001:db8:aa:bc::1')).not.toBe(networkOf('2001:db8:aa:bb::1'));
  });

  it('keys the viewer header and the source address alike', () => {
    expect(clientNetwork(event({}))).toBe('198.51.100.4');
    const v6 = {
      headers: {},
      requestContext: { http: { method: 'POST', path: '/', sourceIp: '2001:db8:5:6:7:8:9:a' } },
    } as unknown as RouteEvent;
    expect(clientNetwork(v6)).toBe('2001:db8:5:6::/64');
  });
});
