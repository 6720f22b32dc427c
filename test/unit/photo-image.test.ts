import fc from 'fast-check';
import jpeg from 'jpeg-js';
import pngjs from 'pngjs';
import { describe, expect, it } from 'vitest';
import { AppError, TooLarge, UnsupportedMediaType, ValidationError } from '#shared/errors';
import { MAX_PHOTO_SIDE, orient, pngRawBytes, reencodePhoto } from '#shared/tickets/domain/photo-image';
import {
  exifSegment,
  GIF_BYTES,
  JPEG_BYTES,
  jpegClaiming,
  jpegImage,
  pngBomb,
  pngClaiming,
  pngImage,
  WEBP_BYTES,
} from '../support/images.ts';

/** Photos are decoded and re-encoded before they are stored. */
const has = (bytes: Uint8Array, text: string) => Buffer.from(bytes).includes(Buffer.from(text, 'latin1'));
/** Whether the pixel at (x, y) of decoded RGBA is red rather than blue (JPEG is lossy: compare channels). */
const redAt = (image: { width: number; data: Uint8Array }, x: number, y: number) => {
  const at = (y * image.width + x) * 4;
  return image.data[at]! > 128 && image.data[at + 2]! < 128;
};

describe('reencodePhoto', () => {
  it('re-encodes a JPEG without its Exif segment (GPS, camera make) and without bytes after the image', async () => {
    const input = jpegImage(16, 8, {
      exif: exifSegment(),
      trailing: Buffer.from('<html><script>alert(1)</script></html>'),
    });
    expect(has(input, 'LeakyPhone')).toBe(true);
    const photo = await reencodePhoto(input);
    expect(photo.type).toEqual({ mediaType: 'image/jpeg', extension: 'jpg' });
    expect([photo.width, photo.height]).toEqual([16, 8]);
    for (const text of ['Exif', 'LeakyPhone', '<html', '<script']) expect(has(photo.bytes, text), text).toBe(false);
    expect(Buffer.from(photo.bytes).includes(Buffer.from([0xff, 0xe1]))).toBe(false);
    const decoded = jpeg.decode(photo.bytes, { useTArray: true });
    expect([decoded.width, decoded.height]).toEqual([16, 8]);
    expect(redAt(decoded, 0, 0)).toBe(true);
    expect(redAt(decoded, 15, 7)).toBe(false);
  });

  it.each([
    // orientation, stored 16×8 with red top-left → upright size, and where red lands
    [1, [16, 8], [0, 0]],
    [3, [16, 8], [15, 7]],
    [6, [8, 16], [7, 0]],
    [8, [8, 16], [0, 15]],
  ] as const)('applies EXIF orientation %i to the pixels before dropping EXIF', async (orientation, size, red) => {
    const photo = await reencodePhoto(jpegImage(16, 8, { exif: exifSegment(orientation) }));
    expect([photo.width, photo.height]).toEqual(size);
    const decoded = jpeg.decode(photo.bytes, { useTArray: true });
    expect([decoded.width, decoded.height]).toEqual(size);
    expect(redAt(decoded, red[0], red[1])).toBe(true);
    expect(has(photo.bytes, 'Exif')).toBe(false);
  });

  it('orients pixels for each of the eight EXIF orientations', async () => {
    // 3×2 pixels numbered 1..6 row by row (one 32-bit word each).
    const pixels = (values: number[]) => new Uint8Array(new Uint32Array(values).buffer);
    const words = (data: Uint8Array) => [...new Uint32Array(data.buffer, data.byteOffset, data.length / 4)];
    const stored = pixels([1, 2, 3, 4, 5, 6]);
    const expected: Record<number, [number, number, number[]]> = {
      1: [3, 2, [1, 2, 3, 4, 5, 6]],
      2: [3, 2, [3, 2, 1, 6, 5, 4]],
      3: [3, 2, [6, 5, 4, 3, 2, 1]],
      4: [3, 2, [4, 5, 6, 1, 2, 3]],
      5: [2, 3, [1, 4, 2, 5, 3, 6]],
      6: [2, 3, [4, 1, 5, 2, 6, 3]],
      7: [2, 3, [6, 3, 5, 2, 4, 1]],
      8: [2, 3, [3, 6, 2, 5, 1, 4]],
    };
    for (const [orientation, [width, height, values]] of Object.entries(expected)) {
      const upright = orient(3, 2, stored, Number(orientation));
      expect([upright.width, upright.height, words(upright.data)], `orientation ${orientation}`).toEqual([
        width,
        height,
        values,
      ]);
    }
  });

  it('re-encodes a PNG without its text chunks', async () => {
    const input = pngImage(5, 3, { Comment: 'home address: 1 Secret Lane', 'XML:com.adobe.xmp': '<x:xmpmeta/>' });
    expect(has(input, 'Secret Lane')).toBe(true);
    const photo = await reencodePhoto(input);
    expect(photo.type.mediaType).toBe('image/png');
    for (const text of ['tEXt', 'Secret Lane', 'xmpmeta']) expect(has(photo.bytes, text), text).toBe(false);
    const decoded = pngjs.PNG.sync.read(Buffer.from(photo.bytes));
    expect([decoded.width, decoded.height]).toEqual([5, 3]);
    expect(redAt(decoded, 0, 0)).toBe(true);
  });

  it('refuses bytes that start like a JPEG or PNG but do not decode (400)', async () => {
    const htmlBehindMagic = Buffer.concat([
      JPEG_BYTES.subarray(0, 11),
      Buffer.from('<html><script>alert(1)</script></html>'),
    ]);
    for (const bytes of [
      JPEG_BYTES,
      htmlBehindMagic,
      jpegImage(8, 8).subarray(0, 200),
      pngImage(4, 4).subarray(0, 40),
    ]) {
      await expect(reencodePhoto(bytes)).rejects.toThrow(ValidationError);
    }
  });

  it('refuses WebP, GIF and other types (415), naming what is accepted', async () => {
    for (const bytes of [WEBP_BYTES, GIF_BYTES, Buffer.from('<svg/>')]) {
      await expect(reencodePhoto(bytes)).rejects.toThrow(UnsupportedMediaType);
    }
    await expect(reencodePhoto(WEBP_BYTES)).rejects.toThrow(/image\/jpeg or image\/png/);
  });

  it('refuses images above the pixel limits from their header, before decoding (413)', async () => {
    const over = [
      pngClaiming(MAX_PHOTO_SIDE + 1, 1),
      pngClaiming(1, MAX_PHOTO_SIDE + 1),
      pngClaiming(50_000, 50_000),
      jpegClaiming(MAX_PHOTO_SIDE + 1, 16),
      jpegClaiming(60_000, 60_000),
    ];
    for (const bytes of over) await expect(reencodePhoto(bytes)).rejects.toThrow(TooLarge);
    await expect(reencodePhoto(pngClaiming(50_000, 50_000))).rejects.toThrow(/50000×50000 pixels/);
  });

  it('answers hostile bytes behind JPEG or PNG magic (or inside a real image) with 400, 413 or 415, never anything else', async () => {
    const seeds = [jpegImage(8, 8, { exif: exifSegment(6) }), pngImage(4, 4, { Comment: 'x' }), JPEG_BYTES];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...seeds),
        fc.nat(),
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        async (seed, at, noise) => {
          const bytes = Buffer.from(seed);
          const from = 2 + (at % (bytes.length - 2));
          bytes.set(noise.subarray(0, bytes.length - from), from);
          try {
            await reencodePhoto(bytes);
          } catch (error) {
            expect(error).toBeInstanceOf(AppError);
            expect([ValidationError, TooLarge, UnsupportedMediaType].some((kind) => error instanceof kind)).toBe(true);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('refuses an empty file (400)', async () => {
    await expect(reencodePhoto(new Uint8Array(0))).rejects.toThrow(ValidationError);
  });
});

describe('pngRawBytes', () => {
  it('is the exact inflated size of the pixel data IHDR describes, interlaced (Adam7) or not', async () => {
    const rgba8 = { bitDepth: 8, colorType: 6, interlaced: false };
    expect(pngRawBytes(3, 2, rgba8)).toBe(2 * (1 + 12));
    expect(pngRawBytes(10, 1, { bitDepth: 1, colorType: 0, interlaced: false })).toBe(1 + 2);
    expect(pngRawBytes(2, 2, { bitDepth: 16, colorType: 2, interlaced: false })).toBe(2 * (1 + 12));
    // 8×8 interlaced, 8-bit grey: passes of 1×1, 1×1, 2×1, 2×2, 4×2, 4×4, 8×4 pixels, a filter byte per row.
    expect(pngRawBytes(8, 8, { bitDepth: 8, colorType: 0, interlaced: true })).toBe(
      2 + 2 + 3 + 2 * 3 + 2 * 5 + 4 * 5 + 4 * 9,
    );
    // 1×1 interlaced: only the first pass holds a pixel.
    expect(pngRawBytes(1, 1, { ...rgba8, interlaced: true })).toBe(1 + 4);
    // Exact: an interlaced image of exactly that much (zero) pixel data decodes; one byte more is a bomb, refused.
    for (const [width, height] of [
      [5, 3],
      [17, 9],
      [1, 33],
    ] as const) {
      const exact = pngRawBytes(width, height, { ...rgba8, interlaced: true })!;
      await expect(
        reencodePhoto(pngBomb({ width, height, interlaced: true, inflatedBytes: exact })),
      ).resolves.toMatchObject({ width, height });
      await expect(
        reencodePhoto(pngBomb({ width, height, interlaced: true, inflatedBytes: exact + 1 })),
      ).rejects.toThrow(ValidationError);
    }
    expect(pngRawBytes(4, 4, { bitDepth: 3, colorType: 6, interlaced: false })).toBeUndefined();
    expect(pngRawBytes(4, 4, { bitDepth: 8, colorType: 5, interlaced: false })).toBeUndefined();
  });
});
