import ipaddr from 'ipaddr.js';

/**
 * Which webhook receivers the service may call. Administrators register the URLs, so an
 * unchecked URL would let anyone holding that permission make our functions call inside
 * the VPC or the cloud's metadata service (SSRF). Only public unicast addresses are
 * receivers; these rules judge a URL's form and an address, and
 * `shared/webhooks/services/webhook-sender.ts` applies them to every address it resolves and
 * connects to.
 */

export interface ReceiverPolicy {
  /**
   * Local runs and tests only: lets `http://127.0.0.1:<port>` through, the one plain-HTTP,
   * loopback receiver (exactly that host; a name resolving to 127.0.0.1 stays refused).
   */
  allowLoopbackHttp: boolean;
}

export const MAX_RECEIVER_URL_LENGTH = 2048;

/**
 * Metadata and credential endpoints of the clouds. The ranges below already refuse every
 * one (link-local, unique-local, carrier-grade NAT, reserved); naming them keeps them
 * refused whatever a later ipaddr.js makes of its tables, and gives the clearer reason.
 */
const CLOUD_METADATA = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack instance metadata
  '169.254.170.2', // ECS task credentials
  '169.254.170.23', // EKS Pod Identity credentials
  'fd00:ec2::254', // AWS instance metadata over IPv6
  'fd00:ec2::23', // EKS Pod Identity over IPv6
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud
]);

/** ipaddr.js's range names, as a client reads them. Any range not named here is 'reserved address'. */
const RANGE_PROBLEMS: Record<string, string> = {
  unspecified: 'unspecified address',
  broadcast: 'broadcast address',
  multicast: 'multicast address',
  loopback: 'loopback address',
  private: 'private address',
  carrierGradeNat: 'carrier-grade NAT address',
  uniqueLocal: 'unique-local address',
  deprecatedSiteLocal: 'site-local address',
  teredo: 'Teredo tunnel address',
};

/** Every public IPv6 address is in 2000::/3 (RFC 4291 §2.4, IANA); ipaddr.js calls `::7f00:1` or `4000::1` unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): the IPv4 receiver is the last 32 bits, where DNS64 puts it. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Undefined when `ip` (an IPv4 or IPv6 literal) is a public unicast address; else why not,
 * a short phrase such as 'loopback address'. Forms that carry an IPv4 address (IPv4-mapped
 * `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by that address,
 * since it is where the packets end up.
 */
export function publicAddressProblem(ip: string): string | undefined {
  // ipaddr.js reads the deprecated IPv4-compatible form `::a.b.c.d` as IPv4-mapped, but the
  // socket connects to `::a.b.c.d` itself (libuv prints `::808:808` that way): judged
  // as what it is, reserved, not as the IPv4 address inside.
  if (/^::[^:]*\./.test(ip)) return 'reserved address (IPv4-compatible)';
  if (!ipaddr.isValid(ip)) return 'not an IP address';
  const address = ipaddr.process(ip);
  return address.kind() === 'ipv4' ? ipv4Problem(address as ipaddr.IPv4) : ipv6Problem(address as ipaddr.IPv6);
}

function ipv4Problem(address: ipaddr.IPv4): string | undefined {
  if (CLOUD_METADATA.has(address.toString())) return 'cloud metadata address';
  const range = address.range();
  if (range === 'unicast') return undefined;
  // 169.254.169.254 and its neighbours hand out instance credentials on every major cloud.
  if (range === 'linkLocal') return 'link-local address (cloud metadata)';
  return RANGE_PROBLEMS[range] ?? 'reserved address';
}

function ipv6Problem(address: ipaddr.IPv6): string | undefined {
  if (CLOUD_METADATA.has(address.toRFC5952String())) return 'cloud metadata address';
  if (address.match(NAT64_WELL_KNOWN)) return ipv4Problem(embeddedIPv4(address, 6));
  const range = address.range();
  // 6to4 (RFC 3056) tunnels to the IPv4 address in bits 16–47; a private one is refused as
  // such. A public one is refused too: 6to4 is deprecated (RFC 7526) and no receiver needs it.
  if (range === '6to4') return ipv4Problem(embeddedIPv4(address, 1)) ?? '6to4 tunnel address';
  if (range === 'linkLocal') return 'link-local address';
  if (range !== 'unicast') return RANGE_PROBLEMS[range] ?? 'reserved address';
  if (!address.match(GLOBAL_UNICAST_V6)) return 'reserved address';
  return undefined;
}

/** The IPv4 address in the two 16-bit groups of `address` from group `at`. */
function embeddedIPv4(address: ipaddr.IPv6, at: number): ipaddr.IPv4 {
  const high = address.parts[at] ?? 0;
  const low = address.parts[at + 1] ?? 0;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** Why a receiver URL is refused: its form, or the address its host names (the sender reports these apart). */
export interface ReceiverUrlRefusal {
  about: 'url' | 'address';
  /** A short phrase for the API client: 'must use https'. */
  problem: string;
}

/**
 * Names that reach the machine itself, the VPC's resolver's private zones or a cloud's
 * metadata service. Anything else is judged by the addresses it resolves to
 * (webhook-sender.ts); these are refused before any lookup, with a clearer reason.
 */
const LOCAL_NAMES = new Set(['localhost', 'metadata', 'instance-data', 'metadata.google.internal']);
const LOCAL_SUFFIXES = ['.localhost', '.internal', '.local', '.localdomain', '.home.arpa'];

/**
 * Undefined when `url` may be registered as a receiver, by its form alone (no lookup):
 * https, no user name or password, at most 2048 characters, a host that is a public IP
 * address or a fully qualified name that is not a local one. Any port.
 */
export function receiverUrlProblem(url: string, policy: ReceiverPolicy): string | undefined {
  return receiverUrlRefusal(url, policy)?.problem;
}

/** `receiverUrlProblem`, saying whether the form or the address is at fault. */
export function receiverUrlRefusal(url: string, policy: ReceiverPolicy): ReceiverUrlRefusal | undefined {
  const refused = (problem: string): ReceiverUrlRefusal => ({ about: 'url', problem });
  if (url.length > MAX_RECEIVER_URL_LENGTH) return refused(`is longer than ${MAX_RECEIVER_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refused('is not a valid URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return refused('must use https');
  // Credentials in a URL end up in logs and in the answers that list subscriptions.
  if (parsed.username || parsed.password) return refused('must not contain a user name or password');
  // WHATWG URL has already turned `2130706433`, `0x7f.0.0.1` and `127.1` into `127.0.0.1`.
  const host = parsed.hostname;
  if (policy.allowLoopbackHttp && parsed.protocol === 'http:' && host === '127.0.0.1') return undefined;
  const literal = host.startsWith('[') ? host.slice(1, -1) : ipaddr.IPv4.isValidFourPartDecimal(host) ? host : '';
  if (literal) {
    // Before the scheme: switching to https would not make this host acceptable.
    const problem = publicAddressProblem(literal);
    if (problem) return { about: 'address', problem: `host is a non-public address (${problem})` };
  } else {
    const problem = hostNameProblem(host);
    if (problem) return refused(problem);
  }
  if (parsed.protocol !== 'https:') return refused('must use https');
  return undefined;
}

function hostNameProblem(host: string): string | undefined {
  const name = host.replace(/\.+$/, '');
  if (LOCAL_NAMES.has(name) || LOCAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) {
    return 'host is a local or internal name';
  }
  // A single label is completed from the resolver's search list (`ip-10-0-0-1` + `.ec2.internal`).
  if (!name.includes('.')) return 'host must be a fully qualified domain name';
  return undefined;
}
