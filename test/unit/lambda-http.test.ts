import { describe, expect, it } from 'vitest';
import { allowedMethods, matchRoute, toApiGatewayEvent, type LocalRequest } from '../../bin/local/lambda-http.ts';

const request = (overrides: Partial<LocalRequest> = {}): LocalRequest => ({
  method: 'GET',
  url: '/api/v2/shipping-method',
  headers: { host: '127.0.0.1:3000', 'user-agent': 'vitest' },
  body: Buffer.alloc(0),
  sourceIp: '127.0.0.1',
  ...overrides,
});

function eventFor(overrides: Partial<LocalRequest> = {}) {
  const req = request(overrides);
  const match = matchRoute(req.method, new URL(req.url, 'http://local').pathname);
  if (!match) throw new Error(`no route for ${req.method} ${req.url}`);
  return toApiGatewayEvent(req, match);
}

describe('matchRoute', () => {
  it('turns {name} segments into URL-decoded path parameters', () => {
    const match = matchRoute('GET', '/api/v2/shipping-method/12%20a');
    expect(match?.row.handler).toBe('shipping-method/get');
    expect(match?.pathParameters).toEqual({ id: '12 a' });
  });

  it('prefers a literal segment over a parameter, as API Gateway does', () => {
    expect(matchRoute('POST', '/api/v2/shipping-method/bulk-read')?.row.handler).toBe('shipping-method/bulk-read');
  });

  it('ignores one trailing slash, not two', () => {
    expect(matchRoute('GET', '/api/v2/shipping-method/')?.row.handler).toBe('shipping-method/list');
    expect(matchRoute('GET', '/api/v2/shipping-method/7/')?.pathParameters).toEqual({ id: '7' });
    expect(matchRoute('GET', '/api/v2/shipping-method//')).toBeUndefined();
  });

  it('finds nothing outside the API prefix or for an unknown path', () => {
    expect(matchRoute('GET', '/shipping-method')).toBeUndefined();
    expect(matchRoute('GET', '/api/v2/no-such-thing')).toBeUndefined();
    expect(allowedMethods('/api/v2/no-such-thing')).toEqual([]);
  });

  it('lists the methods a known path allows when the method does not match', () => {
    expect(matchRoute('PUT', '/api/v2/shipping-method/7')).toBeUndefined();
    expect(allowedMethods('/api/v2/shipping-method/7').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
  });
});

describe('toApiGatewayEvent', () => {
  it('keeps the raw query and joins repeated keys with commas', () => {
    const event = eventFor({ url: '/api/v2/shipping-method?_limit=5&id=1&id=2&q=a%20b' });
    expect(event.rawPath).toBe('/api/v2/shipping-method');
    expect(event.rawQueryString).toBe('_limit=5&id=1&id=2&q=a%20b');
    expect(event.queryStringParameters).toEqual({ _limit: '5', id: '1,2', q: 'a b' });
  });

  it('leaves out query and path parameters when there are none', () => {
    const event = eventFor();
    expect(event.rawQueryString).toBe('');
    expect(event.queryStringParameters).toBeUndefined();
    expect(event.pathParameters).toBeUndefined();
  });

  it('describes the route and the request in the request context', () => {
    const event = eventFor({ url: '/api/v2/shipping-method/3' });
    expect(event.routeKey).toBe('GET /api/v2/shipping-method/{id}');
    expect(event.pathParameters).toEqual({ id: '3' });
    expect(event.requestContext).toMatchObject({
      routeKey: 'GET /api/v2/shipping-method/{id}',
      stage: '$default',
      http: {
        method: 'GET',
        path: '/api/v2/shipping-method/3',
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'vitest',
      },
    });
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('moves cookies out of the headers into the cookies array', () => {
    const event = eventFor({ headers: { cookie: 'a=1; b=2;c=3', Authorization: 'Bearer x' } });
    expect(event.cookies).toEqual(['a=1', 'b=2', 'c=3']);
    expect(event.headers).toEqual({ authorization: 'Bearer x' });
  });

  it('passes JSON and text bodies as UTF-8 text', () => {
    const body = Buffer.from('{"name":"Café"}');
    const event = eventFor({ method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body });
    expect(event.body).toBe('{"name":"Café"}');
    expect(event.isBase64Encoded).toBe(false);
  });

  it('base64-encodes other bodies, such as multipart uploads', () => {
    const body = Buffer.from([0xff, 0xd8, 0x00, 0x01]);
    const event = eventFor({ method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body });
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body!, 'base64')).toEqual(body);
  });

  it('has no body when the request has none', () => {
    const event = eventFor();
    expect(event.body).toBeUndefined();
    expect(event.isBase64Encoded).toBe(false);
  });
});
