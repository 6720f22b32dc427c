import { describe, expect, it } from 'vitest';
import { TooLarge, ValidationError } from '#shared/errors';
import { multipartBoundary, multipartForm, parseMultipart, type UploadedFile } from '#shared/http/multipart';
import { parseBody } from '#shared/http/parse-body';
import type { RouteEvent } from '#shared/http/request';
import { multipartBody } from '../support/multipart.ts';

const LIMITS = { maxFileBytes: 1024 };
const BOUNDARY = '----formdata-test-7MA4YWxkTrZu0gW';

describe('multipartBoundary', () => {
  it('reads a plain and a quoted boundary', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc123')).toBe('abc123');
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe('a b:c');
  });

  it('answers undefined for other media types', () => {
    expect(multipartBoundary('application/json')).toBeUndefined();
    expect(multipartBoundary('image/png')).toBeUndefined();
    expect(multipartBoundary(undefined)).toBeUndefined();
  });

  it('refuses multipart/form-data without a valid boundary with a 400', () => {
    expect(() => multipartBoundary('multipart/form-data')).toThrow(ValidationError);
    expect(() => multipartBoundary(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toThrow(ValidationError);
  });
});

describe('parseMultipart', () => {
  it('reads a file part byte for byte and a text field', () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0x0d, 0x0a]);
    const body = multipartBody(BOUNDARY, [
      { name: 'caption', value: 'Jane at the finish' },
      { name: 'file', filename: 'me.jpg', contentType: 'image/jpeg', data: bytes },
    ]);
    const fields = parseMultipart(body, BOUNDARY, LIMITS);
    expect(fields.caption).toBe('Jane at the finish');
    const file = fields.file as UploadedFile;
    expect(file).toMatchObject({ kind: 'file', filename: 'me.jpg', declaredType: 'image/jpeg' });
    expect(file.data.equals(bytes)).toBe(true);
  });

  it('ignores a preamble, an epilogue and transport padding after boundaries', () => {
    const body = Buffer.from(
      `This is a preamble.\r\n--${BOUNDARY}  \r\nContent-Disposition: form-data; name="a"\r\n\r\none\r\n--${BOUNDARY}--\r\nepilogue`,
    );
    expect(parseMultipart(body, BOUNDARY, LIMITS)).toEqual({ a: 'one' });
  });

  it('decodes quoted names with escapes and RFC 5987 file names', () => {
    const body = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="x.jpg"; filename*=UTF-8''caf%C3%A9.jpg\r\n\r\nxyz\r\n` +
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="say \\"hi\\""\r\n\r\nhello\r\n--${BOUNDARY}--`,
    );
    const fields = parseMultipart(body, BOUNDARY, LIMITS);
    expect((fields.file as UploadedFile).filename).toBe('café.jpg');
    expect(fields['say "hi"']).toBe('hello');
  });

  it('skips the empty file part a browser sends for an empty file input', () => {
    const body = multipartBody(BOUNDARY, [{ name: 'file', filename: '', data: Buffer.alloc(0) }]);
    expect(parseMultipart(body, BOUNDARY, LIMITS)).toEqual({});
  });

  it('keeps __proto__ as an ordinary field name', () => {
    const body = multipartBody(BOUNDARY, [{ name: '__proto__', value: 'x' }]);
    const fields = parseMultipart(body, BOUNDARY, LIMITS);
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(Object.keys(fields)).toEqual(['__proto__']);
  });

  it('answers 413 for a file one byte over the limit, and accepts one at the limit', () => {
    const at = multipartBody(BOUNDARY, [{ name: 'file', filename: 'a.bin', data: Buffer.alloc(1024) }]);
    expect((parseMultipart(at, BOUNDARY, LIMITS).file as UploadedFile).data.length).toBe(1024);
    const over = multipartBody(BOUNDARY, [{ name: 'file', filename: 'a.bin', data: Buffer.alloc(1025) }]);
    expect(() => parseMultipart(over, BOUNDARY, LIMITS)).toThrow(TooLarge);
  });

  it('answers 413 for a body far over the limit before looking inside', () => {
    expect(() => parseMultipart(Buffer.alloc(200_000), BOUNDARY, LIMITS)).toThrow(TooLarge);
  });

  it('answers 413 for an oversized text field', () => {
    const body = multipartBody(BOUNDARY, [{ name: 'note', value: 'x'.repeat(2000) }]);
    expect(() => parseMultipart(body, BOUNDARY, { ...LIMITS, maxFieldBytes: 1000 })).toThrow(TooLarge);
  });

  it.each([
    ['a body without the boundary', Buffer.from('hello')],
    [
      'a body cut off before the closing boundary',
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\none`),
    ],
    [
      'a part without Content-Disposition',
      Buffer.from(`--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\none\r\n--${BOUNDARY}--`),
    ],
    [
      'a part without a name',
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\none\r\n--${BOUNDARY}--`),
    ],
    [
      'a part whose headers never end',
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n--${BOUNDARY}--`),
    ],
    ['a boundary line followed by garbage', Buffer.from(`--${BOUNDARY}garbage\r\n\r\n--${BOUNDARY}--`)],
    [
      'the same field twice',
      multipartBody(BOUNDARY, [
        { name: 'a', value: '1' },
        { name: 'a', value: '2' },
      ]),
    ],
    [
      'more than 10 parts',
      multipartBody(
        BOUNDARY,
        Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, value: 'x' })),
      ),
    ],
  ])('answers 400 for %s', (_name, body) => {
    expect(() => parseMultipart(body, BOUNDARY, LIMITS)).toThrow(ValidationError);
  });
});

describe('parseBody with a multipart form', () => {
  const run = async (event: Partial<RouteEvent>) => {
    const request = { event: { headers: {}, ...event } as RouteEvent } as Parameters<
      NonNullable<ReturnType<typeof parseBody>['before']>
    >[0];
    await parseBody({ multipart: multipartForm(LIMITS) }).before!(request);
    return request.event.body;
  };

  it('decodes a base64 body, as API Gateway sends binary bodies', async () => {
    const body = multipartBody(BOUNDARY, [
      { name: 'file', filename: 'a.png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
    ]);
    const parsed = (await run({
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: body.toString('base64'),
      isBase64Encoded: true,
    })) as Record<string, UploadedFile>;
    expect([...parsed.file!.data]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('answers 415 for a JSON body and for a missing Content-Type', async () => {
    await expect(run({ headers: { 'content-type': 'application/json' }, body: '{}' })).rejects.toMatchObject({
      kind: 'unsupported-media-type',
    });
    await expect(run({ body: 'x' })).rejects.toMatchObject({ kind: 'unsupported-media-type' });
  });
});
