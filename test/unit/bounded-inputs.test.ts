import { describe, expect, it } from 'vitest';
import { TooLarge, ValidationError } from '#shared/errors';
import { CONTENT_TYPE_LIMIT, type FormFields, HEADER_LIMIT, multipartForm } from '#shared/http/multipart-form';
import { parseBody } from '#shared/http/parse-body';
import type { RouteEvent } from '#shared/http/request';

const BOUNDARY = '----bounded-test-boundary';

/** The photo upload's parser (the library inside our middleware), as the route runs it. */
async function parseForm(body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  const event = { headers: { 'content-type': contentType }, body: body.toString('base64'), isBase64Encoded: true };
  const request = { event: event as unknown as RouteEvent } as Parameters<
    NonNullable<ReturnType<typeof parseBody>['before']>
  >[0];
  await parseBody({ multipart: multipartForm({ maxFileBytes: 64 * 1024 }) }).before!(request);
  return request.event.body as FormFields;
}
const field = (disposition: string) =>
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\nvalue\r\n--${BOUNDARY}--\r\n`);

describe('multipart header limits', () => {
  it(`refuses a Content-Type over ${CONTENT_TYPE_LIMIT} characters (16 KB of whitespace) with a 400 before parsing it`, async () => {
    await expect(
      parseForm(field('form-data; name="a"'), `multipart/form-data;${' '.repeat(16 * 1024)}boundary=${BOUNDARY}`),
    ).rejects.toThrow(ValidationError);
    expect(
      await parseForm(field('form-data; name="a"'), `multipart/form-data;${' '.repeat(900)}boundary=${BOUNDARY}`),
    ).toEqual({
      a: 'value',
    });
  });

  it(`reads a part header block no further than ${HEADER_LIMIT} bytes: what lies beyond (here the name) is never read`, async () => {
    // busboy cuts the block at the limit; the part keeps no name, so the route's schema refuses the form.
    for (const spaces of [16 * 1024, 100 * 1024])
      expect(Object.keys(await parseForm(field(`form-data;${' '.repeat(spaces)}name="a"`)))).not.toContain('a');
    expect(await parseForm(field(`form-data;${' '.repeat(HEADER_LIMIT - 100)}name="a"`))).toEqual({ a: 'value' });
  });

  it('refuses a text field that is not UTF-8 with a 400', async () => {
    const bad = field('form-data; name="note"');
    bad[bad.indexOf('value')] = 0xc3; // a lead byte without its continuation
    await expect(parseForm(bad)).rejects.toThrow(/not valid UTF-8/);
  });
});

describe('JSON bodies must be UTF-8', () => {
  const run = async (event: Partial<RouteEvent>) => {
    const request = {
      event: { headers: { 'content-type': 'application/json' }, ...event } as RouteEvent,
    } as Parameters<NonNullable<ReturnType<typeof parseBody>['before']>>[0];
    await parseBody('json').before!(request);
    return request.event.body;
  };

  it('refuses bytes that are not UTF-8 in a base64 body', async () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    await expect(run({ body: bytes.toString('base64'), isBase64Encoded: true })).rejects.toThrow(/not valid UTF-8/);
    await expect(
      run({ body: Buffer.from('{"name":"café"}').toString('base64'), isBase64Encoded: true }),
    ).resolves.toEqual({ name: 'café' });
  });

  it('refuses U+FFFD (what the gateway made of bad bytes) and lone surrogates, raw or escaped', async () => {
    await expect(run({ body: '{"name":"a\uFFFDb"}' })).rejects.toBeInstanceOf(ValidationError);
    await expect(run({ body: '{"name":"\\ud800"}' })).rejects.toThrow(/not valid UTF-8/);
    await expect(run({ body: '{"\\udc00":1}' })).rejects.toThrow(/not valid UTF-8/);
    await expect(run({ body: '{"name":"\\ud83d\\ude00 ok"}' })).resolves.toEqual({ name: '\u{1F600} ok' });
  });

  it('checks deep nesting without recursion, and the size before decoding', async () => {
    const deep = `${'['.repeat(200_000)}"\\ud800"${']'.repeat(200_000)}`;
    await expect(run({ body: deep })).rejects.toThrow(/not valid UTF-8/);
    await expect(
      run({ body: Buffer.alloc(1024 * 1024 + 10, 0x20).toString('base64'), isBase64Encoded: true }),
    ).rejects.toBeInstanceOf(TooLarge);
  });
});
