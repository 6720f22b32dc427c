import { describe, expect, it } from 'vitest';
import { sniffImageType } from '#shared/domain/image-type';
import { GIF_BYTES, JPEG_BYTES, PNG_BYTES, WEBP_BYTES } from '../support/images.ts';

describe('sniffImageType', () => {
  it('knows JPEG by FF D8 FF', () => {
    expect(sniffImageType(JPEG_BYTES)).toEqual({ mediaType: 'image/jpeg', extension: 'jpg' });
  });

  it('knows PNG by its eight-byte signature', () => {
    expect(sniffImageType(PNG_BYTES)).toEqual({ mediaType: 'image/png', extension: 'png' });
  });

  it('knows WebP by RIFF....WEBPVP8', () => {
    expect(sniffImageType(WEBP_BYTES)).toEqual({ mediaType: 'image/webp', extension: 'webp' });
  });

  it('refuses a RIFF file that is not WebP (a WAV file)', () => {
    expect(
      sniffImageType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(8)])),
    ).toBeUndefined();
  });

  it.each([
    ['GIF', GIF_BYTES],
    ['SVG text', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['HTML', Buffer.from('<!doctype html><script>alert(1)</script>')],
    ['a PDF', Buffer.from('%PDF-1.7')],
    ['a truncated PNG signature', PNG_BYTES.subarray(0, 7)],
    ['nothing', Buffer.alloc(0)],
  ])('refuses %s', (_name, bytes) => {
    expect(sniffImageType(bytes)).toBeUndefined();
  });
});
