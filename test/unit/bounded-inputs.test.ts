import { describe, expect, it } from 'vitest';
import { TooLarge, ValidationError } from '#shared/errors';
import {
  CONTENT_TYPE_LIMIT,
  HEADER_LIMIT,
  multipartBoundary,
  parseMultipart,
  parseParameters,
} from '#shared/http/multipart';
import { parseBody } from '#shared/http/parse-body';
import type { RouteEvent } from '#shared/http/request';
import { multipartBody } from '../support/multipart.ts';

const LIMITS = { maxFileBytes: 1024 };
const BOUNDARY = '----bounded-test-boundary';

describe('parseParameters', () => {
  it.each([4 * 1024, 16 * 1024, 64 * 1024])(
    'steps over each of %i characters of whitespace at most once (linear, not quadratic)',
    (size) => {
      for (const text of [
        ' '.repeat(size),
        `${' '.repeat(size)}boundary=x`,
        `a=1;${' \t'.repeat(size / 2)};b="${' '.repeat(size)}"`,
        ` ;`.repeat(size / 2),
      ]) {
        const work = { steps: 0 };
        parseParameters(text, work);
        expect(work.steps).toBeLessThanOrEqual(text.length + 1);
      }
    },
  );

  it('still reads plain, quoted and escaped values between long runs of spaces', () => {
    const spaces = ' '.repeat(16 * 1024);
    const parameters = parseParameters(`${spaces}; name="a \\"b\\""${spaces};${spaces}filename = x.jpg ; junk;z=1`);
    expect(Object.fromEntries(parameters)).toEqual({ name: 'a "b"', filename: 'x.jpg', z: '1' });
  });
});

describe('multipart header limits', () => {
  it(`refuses a Content-Type over ${CONTENT_TYPE_LIMIT} characters (16 KB of whitespace) with a 400 before parsing it`, () => {
    expect(() => multipartBoundary(`multipart/form-data;${' '.repeat(16 * 1024)}boundary=x`)).toThrow(ValidationError);
    expect(multipartBoundary(`multipart/form-data;${' '.repeat(900)}boundary=x`)).toBe('x');
  });

  it(`refuses a part header block over ${HEADER_LIMIT} bytes with a 400`, () => {
    const body = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data;${' '.repeat(16 * 1024)}name="a"\r\n\r\nvalue\r\n--${BOUNDARY}--\r\n`,
    );
    expect(() => parseMultipart(body, BOUNDARY, { maxFileBytes: 64 * 1024 })).toThrow(/within 8 KiB/);
    const fits = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data;${' '.repeat(HEADER_LIMIT - 100)}name="a"\r\n\r\nvalue\r\n--${BOUNDARY}--\r\n`,
    );
    expect(parseMultipart(fits, BOUNDARY, { maxFileBytes: 64 * 1024 })).toEqual({ a: 'value' });
  });

  it('refuses a text field that is not UTF-8 with a 400 (file parts stay bytes)', () => {
    const bad = multipartBody(BOUNDARY, [{ name: 'note', value: 'x' }]);
    const at = bad.indexOf('x\r\n');
    bad[at] = 0xc3; // a lead byte without its continuation
    expect(() => parseMultipart(bad, BOUNDARY, LIMITS)).toThrow(/not valid UTF-8/);
    const file = multipartBody(BOUNDARY, [{ name: 'file', filename: 'a.bin', data: Buffer.from([0xc3, 0xff]) }]);
    expect(() => parseMultipart(file, BOUNDARY, LIMITS)).not.toThrow();
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
