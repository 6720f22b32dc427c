import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError, TooLarge, UnsupportedMediaType, ValidationError } from '#shared/errors';
import { type FormFields, multipartForm, type MultipartLimits, type UploadedFile } from '#shared/http/multipart-form';
import { parseBody } from '#shared/http/parse-body';
import type { RouteEvent } from '#shared/http/request';
import { multipartBody } from '../support/multipart.ts';

/**
 * The photo upload's body parser: `@middy/http-multipart-body-parser` (busboy) inside our
 * middleware, run as the route runs it (parseBody with the route's form). Each test names a
 * behaviour the hand-written parser had; where the library differs, the test says so.
 */
const LIMITS = { maxFileBytes: 1024 };
const BOUNDARY = '----formdata-test-7MA4YWxkTrZu0gW';
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** `contentType` null: the request has none. */
async function parse(body: Buffer, contentType: string | null = TYPE, limits: MultipartLimits = LIMITS) {
  const event = {
    headers: contentType === null ? {} : { 'content-type': contentType },
    body: body.toString('base64'),
    isBase64Encoded: true,
  } as unknown as RouteEvent;
  const request = { event } as Parameters<NonNullable<ReturnType<typeof parseBody>['before']>>[0];
  await parseBody({ multipart: multipartForm(limits) }).before!(request);
  return request.event.body as FormFields;
}

const simple = multipartBody(BOUNDARY, [{ name: 'a', value: 'one' }]);

describe('the Content-Type', () => {
  it('takes the boundary plain or quoted, the type in any case, beside other parameters', async () => {
    for (const type of [
      TYPE,
      `multipart/form-data;boundary=${BOUNDARY}`,
      `Multipart/Form-Data; charset=utf-8; boundary="${BOUNDARY}"`,
    ]) {
      expect(await parse(simple, type), type).toEqual({ a: 'one' });
    }
  });

  it('answers 415 for other media types and for a missing Content-Type', async () => {
    for (const type of ['application/json', 'image/png', 'multipart/mixed; boundary=x', 'garbage', null]) {
      await expect(parse(simple, type), String(type)).rejects.toBeInstanceOf(UnsupportedMediaType);
    }
  });

  it('refuses multipart/form-data without a valid boundary with a 400', async () => {
    for (const type of [
      'multipart/form-data',
      'multipart/form-data; boundary=',
      `multipart/form-data; boundary=${'x'.repeat(71)}`,
    ]) {
      await expect(parse(simple, type), type).rejects.toBeInstanceOf(ValidationError);
    }
  });

  it('answers 415 for a boundary RFC 2046 allows but the library does not (other than letters, digits and "-")', async () => {
    const body = multipartBody('a b:c', [{ name: 'a', value: 'one' }]);
    await expect(parse(body, 'multipart/form-data; boundary="a b:c"')).rejects.toThrow(/letters, digits and "-"/);
  });
});

describe('the form', () => {
  it('reads a file part byte for byte and a text field', async () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0x0d, 0x0a]);
    const fields = await parse(
      multipartBody(BOUNDARY, [
        { name: 'caption', value: 'Jane at the finish' },
        { name: 'file', filename: 'me.jpg', contentType: 'image/jpeg', data: bytes },
      ]),
    );
    expect(fields.caption).toBe('Jane at the finish');
    const file = fields.file as UploadedFile;
    expect(file).toMatchObject({ kind: 'file', filename: 'me.jpg', declaredType: 'image/jpeg' });
    expect(file.data.equals(bytes)).toBe(true);
  });

  it('ignores a preamble and an epilogue', async () => {
    const body = Buffer.from(
      `This is a preamble.\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\none\r\n--${BOUNDARY}--\r\nepilogue`,
    );
    expect(await parse(body)).toEqual({ a: 'one' });
  });

  it('decodes quoted names with escapes and RFC 5987 file names', async () => {
    const body = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="x.jpg"; filename*=UTF-8''caf%C3%A9.jpg\r\n\r\nxyz\r\n` +
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="say \\"hi\\""\r\n\r\nhello\r\n--${BOUNDARY}--`,
    );
    const fields = await parse(body);
    expect((fields.file as UploadedFile).filename).toBe('café.jpg');
    expect(fields['say "hi"']).toBe('hello');
  });

  it('skips the empty file part a browser sends for an empty file input', async () => {
    expect(await parse(multipartBody(BOUNDARY, [{ name: 'file', filename: '', data: Buffer.alloc(0) }]))).toEqual({});
  });

  it('reads a part named like an array or like a property of Object as plain text, and never touches a prototype', async () => {
    const fields = await parse(
      multipartBody(BOUNDARY, [
        { name: 'a', value: '1' },
        { name: 'a[]', value: '2' },
        { name: 'constructor[]', value: '3' },
        { name: '__proto__', filename: 'x.png', data: Buffer.from('x') },
      ]),
    );
    // The library assigns a part named __proto__ to the object's prototype: it is dropped, the prototype is untouched.
    expect(fields).toEqual({ a: '1', 'a[]': '2', 'constructor[]': '3' });
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
  });

  it('answers 400 for a file part sent twice; a text field sent twice keeps its last value (the library)', async () => {
    const twice = multipartBody(BOUNDARY, [
      { name: 'file', filename: 'a.png', data: Buffer.from('1') },
      { name: 'file', filename: 'b.png', data: Buffer.from('2') },
    ]);
    await expect(parse(twice)).rejects.toThrow(/"file" is sent more than once/);
    const fieldTwice = multipartBody(BOUNDARY, [
      { name: 'a', value: '1' },
      { name: 'a', value: '2' },
    ]);
    expect(await parse(fieldTwice)).toEqual({ a: '2' });
  });

  it('refuses a text field that is not UTF-8 with a 400 (file parts stay bytes)', async () => {
    const bad = multipartBody(BOUNDARY, [{ name: 'note', value: 'x' }]);
    bad[bad.indexOf('x\r\n')] = 0xc3; // a lead byte without its continuation
    await expect(parse(bad)).rejects.toThrow(/not valid UTF-8/);
    const file = multipartBody(BOUNDARY, [{ name: 'file', filename: 'a.bin', data: Buffer.from([0xc3, 0xff]) }]);
    expect([...((await parse(file)).file as UploadedFile).data]).toEqual([0xc3, 0xff]);
  });
});

describe('the limits', () => {
  it('answers 413 for a file one byte over the limit, and accepts one at the limit', async () => {
    const at = multipartBody(BOUNDARY, [{ name: 'file', filename: 'a.bin', data: Buffer.alloc(1024) }]);
    expect(((await parse(at)).file as UploadedFile).data.length).toBe(1024);
    const over = multipartBody(BOUNDARY, [{ name: 'file', filename: 'a.bin', data: Buffer.alloc(1025) }]);
    await expect(parse(over)).rejects.toBeInstanceOf(TooLarge);
  });

  it('answers 413 for a body far over the limit before looking inside', async () => {
    await expect(parse(Buffer.alloc(200_000))).rejects.toBeInstanceOf(TooLarge);
  });

  it('answers 413 for a text field one byte over its limit, and accepts one at it', async () => {
    const limits = { ...LIMITS, maxFieldBytes: 1000 };
    expect(await parse(multipartBody(BOUNDARY, [{ name: 'note', value: 'é'.repeat(500) }]), TYPE, limits)).toEqual({
      note: 'é'.repeat(500),
    });
    await expect(
      parse(multipartBody(BOUNDARY, [{ name: 'note', value: `${'é'.repeat(500)}x` }]), TYPE, limits),
    ).rejects.toBeInstanceOf(TooLarge);
    await expect(
      parse(multipartBody(BOUNDARY, [{ name: 'note[]', value: 'x'.repeat(1001) }]), TYPE, limits),
    ).rejects.toBeInstanceOf(TooLarge);
  });

  it('answers 400 for more than 10 parts, and accepts 10', async () => {
    const form = (n: number) =>
      multipartBody(
        BOUNDARY,
        Array.from({ length: n }, (_, i) => ({ name: `f${i}`, value: 'x' })),
      );
    expect(Object.keys(await parse(form(10)))).toHaveLength(10);
    await expect(parse(form(11))).rejects.toThrow(/at most 10 parts/);
    await expect(parse(form(500))).rejects.toThrow(/at most 10 parts/);
  });
});

describe('malformed bodies', () => {
  it.each([
    ['a body without the boundary', Buffer.from('hello')],
    ['an empty body', Buffer.alloc(0)],
    [
      'a body cut off before the closing boundary',
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\none`),
    ],
    [
      'a file part cut off before the closing boundary',
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\none`),
    ],
    [
      'a part whose headers never end',
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n--${BOUNDARY}--`),
    ],
    ['a boundary line followed by garbage', Buffer.from(`--${BOUNDARY}garbage\r\n\r\n--${BOUNDARY}--`)],
  ])('answer 400 for %s', async (_name, body) => {
    await expect(parse(body)).rejects.toBeInstanceOf(ValidationError);
  });

  it('are read, not refused, where the library skips a part (no Content-Disposition) or keys it "undefined" (no name): the route schema refuses the form', async () => {
    expect(await parse(Buffer.from(`--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\none\r\n--${BOUNDARY}--`))).toEqual(
      {},
    );
    expect(
      await parse(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\none\r\n--${BOUNDARY}--`)),
    ).toEqual({ undefined: 'one' });
  });

  it('never throw anything but a 4xx, and always settle, whatever the bytes (the library alone throws outside its promise or hangs on some)', async () => {
    const names = fc.constantFrom('file', 'a', 'a[]', 'constructor[]', '__proto__', '__proto__[]', 'then', 'x]', '');
    const header = fc.oneof(
      fc
        .tuple(
          names,
          fc.option(fc.constantFrom('a.png', '', '../x')),
          fc.option(fc.constantFrom('image/png', 'text/plain; charset=bogus')),
        )
        .map(
          ([name, filename, type]) =>
            `Content-Disposition: form-data; name="${name}"${filename === null ? '' : `; filename="${filename}"`}${type === null ? '' : `\r\nContent-Type: ${type}`}`,
        ),
      fc.constantFrom('Content-Disposition: form-data', 'Content-Type: text/plain', '', 'garbage'),
    );
    const content = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.uint8Array({ maxLength: 1200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
      fc.constantFrom(`\r\n--${BOUNDARY}`, `--${BOUNDARY}--`, '\r\n\r\n'),
    );
    const part = fc
      .tuple(header, content, fc.constantFrom('\r\n\r\n', '\r\n\r\n', '\r\n', ''))
      .map(([head, text, gap]) => `--${BOUNDARY}\r\n${head}${gap}${text}\r\n`);
    const body = fc
      .tuple(
        fc.array(part, { maxLength: 6 }),
        fc.constantFrom(`--${BOUNDARY}--\r\n`, `--${BOUNDARY}--`, '', `--${BOUNDARY}`),
      )
      .map(([parts, end]) => Buffer.from(parts.join('') + end, 'latin1'));
    const input = fc.oneof(
      body,
      fc
        .tuple(body, fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 3 }), fc.nat())
        .map(([bytes, flips, cut]) => {
          for (const [at, value] of flips) if (bytes.length) bytes[at % bytes.length] = value;
          return cut % 3 ? bytes : bytes.subarray(0, cut % (bytes.length + 1));
        }),
    );
    await fc.assert(
      fc.asyncProperty(input, async (bytes) => {
        try {
          await parse(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).kind).not.toBe('unavailable');
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('parseBody with a multipart form', () => {
  it('decodes a base64 body, as API Gateway sends binary bodies', async () => {
    const parsed = await parse(
      multipartBody(BOUNDARY, [{ name: 'file', filename: 'a.png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }]),
    );
    expect([...(parsed.file as UploadedFile).data]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('answers 415 for a JSON body and for a missing Content-Type', async () => {
    await expect(parse(Buffer.from('{}'), 'application/json')).rejects.toMatchObject({
      kind: 'unsupported-media-type',
    });
    await expect(parse(Buffer.from('x'), null)).rejects.toMatchObject({ kind: 'unsupported-media-type' });
  });
});
