import { isIPv4, isIPv6 } from 'node:net';
import { config, NO_ORIGIN_CHECK } from '../config.ts';
import { header, type RouteEvent } from './request.ts';

/**
 * Set on every `/api/*` request by the front ends' CloudFront Function from the viewer's
 * own address (infra/front-ends.ts), overwriting any value the viewer sent, so it cannot
 * be forged. The managed AllViewerExceptHostHeader policy does not forward CloudFront's
 * `CloudFront-Viewer-Address`, and a custom policy that adds it must also forward Host,
 * which API Gateway refuses.
 */
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';

/**
 * The caller's network, the subject of the per-client limits (logins, reset mails): an
 * IPv4 address itself, an IPv6 address's /64 (one subscriber's prefix: keying on the whole
 * address would give an attacker 2^64 fresh limits). API Gateway's `sourceIp` is the TCP
 * peer: behind the front ends' CloudFront that is an edge server, shared by many viewers.
 * Where requests must come through CloudFront (ORIGIN_VERIFY_SECRET names a secret, checked by
 * origin-verify.ts before any handler) the viewer's address is the header above; anywhere
 * else (locally, or a stage without the check) the header could come from the caller, so
 * only `sourceIp` counts.
 */
export function clientNetwork(event: RouteEvent): string {
  const secret = config().ORIGIN_VERIFY_SECRET;
  const viewer = secret && secret !== NO_ORIGIN_CHECK ? header(event, VIEWER_ADDRESS_HEADER) : undefined;
  return networkOf(viewer || event.requestContext.http.sourceIp);
}

/** `203.0.113.7` → itself; `2001:db8:1:2:3::4` → `2001:db8:1:2::/64`; an IPv4-mapped IPv6 → its IPv4. */
export function networkOf(address: string): string {
  const bare = address.split('%')[0]?.toLowerCase() ?? '';
  if (isIPv4(bare) || !isIPv6(bare)) return bare;
  const groups = hextets(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` filled in, a dotted IPv4 tail as two groups). */
function hextets(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parse = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
}
