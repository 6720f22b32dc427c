import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_RECEIVER_URL_LENGTH,
  publicAddressProblem,
  receiverUrlProblem,
  receiverUrlRefusal,
} from '#shared/webhooks/domain/receiver-address';

const strict = { allowLoopbackHttp: false };
const local = { allowLoopbackHttp: true };

describe('publicAddressProblem', () => {
  it.each([
    ['127.0.0.1', 'loopback address'],
    ['127.255.0.9', 'loopback address'],
    ['10.0.0.1', 'private address'],
    ['172.16.0.1', 'private address'],
    ['172.31.255.254', 'private address'],
    ['192.168.1.1', 'private address'],
    ['169.254.169.254', 'cloud metadata address'],
    ['169.254.170.2', 'cloud metadata address'],
    ['169.254.1.1', 'link-local address (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT address'],
    ['100.100.100.200', 'cloud metadata address'],
    ['192.0.0.192', 'cloud metadata address'],
    ['0.0.0.0', 'unspecified address'],
    ['224.0.0.1', 'multicast address'],
    ['255.255.255.255', 'broadcast address'],
    ['192.0.2.10', 'reserved address'],
    ['240.0.0.1', 'reserved address'],
    ['::1', 'loopback address'],
    ['::', 'unspecified address'],
    ['fe80::1', 'link-local address'],
    ['fe80::1%eth0', 'link-local address'],
    ['fc00::1', 'unique-local address'],
    ['fd12:3456::1', 'unique-local address'],
    ['fd00:ec2::254', 'cloud metadata address'],
    ['ff02::1', 'multicast address'],
    ['2001:db8::1', 'reserved address'],
    ['::ffff:127.0.0.1', 'loopback address'],
    ['::ffff:7f00:1', 'loopback address'],
    ['::ffff:10.0.0.1', 'private address'],
    ['::ffff:169.254.169.254', 'cloud metadata address'],
    ['64:ff9b::a00:1', 'private address'],
    ['64:ff9b::7f00:1', 'loopback address'],
    ['64:ff9b:1::a00:1', 'reserved address'],
    ['2002:a00:1::1', 'private address'],
    ['2002:808:808::1', '6to4 tunnel address'],
    ['2001::1', 'Teredo tunnel address'],
    ['::7f00:1', 'reserved address'],
    ['4000::1', 'reserved address'],
  ])('refuses %s: %s', (address, reason) => {
    expect(publicAddressProblem(address)).toBe(reason);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    // NAT64 of a public address: how an IPv6-only function behind DNS64 reaches an IPv4-only receiver.
    '64:ff9b::808:808',
  ])('accepts %s as public', (address) => {
    expect(publicAddressProblem(address)).toBeUndefined();
  });

  it('judges the deprecated ::a.b.c.d form as itself (reserved), not as the IPv4 address ipaddr.js reads in it', () => {
    // libuv prints ::808:808 as "::8.8.8.8"; ipaddr.js would parse that as ::ffff:8.8.8.8, a public address.
    expect(publicAddressProblem('::8.8.8.8')).toBe('reserved address (IPv4-compatible)');
    expect(publicAddressProblem('::127.0.0.1')).toBe('reserved address (IPv4-compatible)');
  });

  it('says a name or garbage is not an IP address', () => {
    for (const text of ['example.com', '', '1.2.3.4.5', '::g'])
      expect(publicAddressProblem(text)).toBe('not an IP address');
  });

  it('judges the IPv4-mapped and NAT64 forms of any IPv4 address as the address itself', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const octets = fc.tuple(octet, octet, octet, octet);
    fc.assert(
      fc.property(octets, ([a, b, c, d]) => {
        const v4 = `${a}.${b}.${c}.${d}`;
        const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        expect(publicAddressProblem(`::ffff:${v4}`)).toBe(publicAddressProblem(v4));
        expect(publicAddressProblem(`::ffff:${hex}`)).toBe(publicAddressProblem(v4));
        expect(publicAddressProblem(`64:ff9b::${hex}`)).toBe(publicAddressProblem(v4));
      }),
    );
  });
});

describe('receiverUrlProblem', () => {
  it.each([
    ['http://example.com/hooks', 'must use https'],
    ['ftp://example.com/', 'must use https'],
    ['javascript:alert(1)', 'must use https'],
    ['not a url', 'is not a valid URL'],
    ['https://user:pw@example.com/', 'must not contain a user name or password'],
    ['https://user@example.com/', 'must not contain a user name or password'],
    ['https://127.0.0.1/', 'host is a non-public address (loopback address)'],
    ['https://[::1]/', 'host is a non-public address (loopback address)'],
    ['https://[::ffff:127.0.0.1]/', 'host is a non-public address (loopback address)'],
    ['https://[::127.0.0.1]/', 'host is a non-public address (reserved address)'],
    ['https://10.1.2.3:8443/hooks', 'host is a non-public address (private address)'],
    ['https://169.254.169.254/latest/meta-data', 'host is a non-public address (cloud metadata address)'],
    ['https://[fd00:ec2::254]/latest/meta-data', 'host is a non-public address (cloud metadata address)'],
    // WHATWG URL turns the decimal, hex, octal and short forms into 127.0.0.1 before anything else sees them.
    ['https://2130706433/', 'host is a non-public address (loopback address)'],
    ['https://0x7f.0.0.1/', 'host is a non-public address (loopback address)'],
    ['https://0177.0.0.1/', 'host is a non-public address (loopback address)'],
    ['https://127.1/', 'host is a non-public address (loopback address)'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'host is a local or internal name'],
    ['https://localhost/', 'host is a local or internal name'],
    ['https://LOCALHOST./', 'host is a local or internal name'],
    ['https://foo.localhost/', 'host is a local or internal name'],
    ['https://metadata/', 'host is a local or internal name'],
    ['https://instance-data/latest/', 'host is a local or internal name'],
    ['https://ip-10-0-0-1.ec2.internal/', 'host is a local or internal name'],
    ['https://printer.local/', 'host is a local or internal name'],
    ['https://intranet/', 'host must be a fully qualified domain name'],
  ])('refuses %s: %s', (url, reason) => {
    expect(receiverUrlProblem(url, strict)).toBe(reason);
  });

  it.each([
    'https://example.com/hooks',
    'https://hooks.example.com:8443/in?tenant=7',
    'https://EXAMPLE.com./hooks',
    'https://93.184.216.34/hooks',
    'https://[2606:4700:4700::1111]/hooks',
    'https://xn--bcher-kva.example/',
  ])('accepts %s', (url) => {
    expect(receiverUrlProblem(url, strict)).toBeUndefined();
  });

  it('accepts a URL of 2048 characters and refuses one longer', () => {
    const base = 'https://example.com/';
    const longest = base + 'a'.repeat(MAX_RECEIVER_URL_LENGTH - base.length);
    expect(receiverUrlProblem(longest, strict)).toBeUndefined();
    expect(receiverUrlProblem(`${longest}a`, strict)).toBe('is longer than 2048 characters');
  });

  it('allows http://127.0.0.1:<port> only under allowLoopbackHttp', () => {
    expect(receiverUrlProblem('http://127.0.0.1:9/hooks', local)).toBeUndefined();
    expect(receiverUrlProblem('http://127.0.0.1:9/hooks', strict)).toBe(
      'host is a non-public address (loopback address)',
    );
  });

  it('allows no other loopback receiver under allowLoopbackHttp', () => {
    expect(receiverUrlProblem('http://127.0.0.2/', local)).toBe('host is a non-public address (loopback address)');
    expect(receiverUrlProblem('http://[::1]:9/', local)).toBe('host is a non-public address (loopback address)');
    expect(receiverUrlProblem('http://localhost:9/', local)).toBe('host is a local or internal name');
    expect(receiverUrlProblem('https://127.0.0.1:9/', local)).toBe('host is a non-public address (loopback address)');
    expect(receiverUrlProblem('http://example.com/', local)).toBe('must use https');
    expect(receiverUrlProblem('http://u:p@127.0.0.1:9/', local)).toBe('must not contain a user name or password');
  });

  it('says whether the form or the address is at fault', () => {
    expect(receiverUrlRefusal('http://example.com/', strict)).toEqual({ about: 'url', problem: 'must use https' });
    expect(receiverUrlRefusal('http://10.0.0.1/', strict)).toEqual({
      about: 'address',
      problem: 'host is a non-public address (private address)',
    });
    expect(receiverUrlRefusal('https://example.com/', strict)).toBeUndefined();
  });
});
