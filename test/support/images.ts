import { crc32, deflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import pngjs from 'pngjs';

/** Image bytes for tests: each starts with its format's real signature. */

/** A complete 1×1 PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A JPEG header (JFIF APP0) followed by filler. */
export const JPEG_BYTES = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
  Buffer.alloc(64, 7),
]);
/** A RIFF/WEBP container with a VP8 chunk header followed by filler. */
export const WEBP_BYTES = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x24, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(32, 1),
]);
export const GIF_BYTES = Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00', 'latin1');

// Real, decodable images (photos are decoded and re-encoded before they are stored).

/** RGBA pixels: red in the top-left quadrant, blue elsewhere, so a rotation shows where red went. */
export function quadrantPixels(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const red = x < width / 2 && y < height / 2;
      data.set(red ? [255, 0, 0, 255] : [0, 0, 255, 255], (y * width + x) * 4);
    }
  }
  return data;
}

/** An APP1 Exif segment: IFD0 with Make "LeakyPhone", the orientation and a GPS IFD (latitude N 52° 31' 12"). */
export function exifSegment(orientation = 1): Buffer {
  const tiff = Buffer.alloc(100);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    tiff.writeUInt32LE(value, at + 8);
  };
  tiff.writeUInt16LE(3, 8); // IFD0: 3 entries at 10, next IFD 0 at 46
  entry(10, 0x010f, 2, 11, 50); // Make → "LeakyPhone\0" at 50
  entry(22, 0x0112, 3, 1, orientation);
  entry(34, 0x8825, 4, 1, 62); // GPS IFD at 62
  tiff.write('LeakyPhone\0', 50, 'latin1');
  tiff.writeUInt16LE(2, 62); // GPS IFD: LatitudeRef "N" (inline), Latitude (one rational at 92; the GPS IFD's next-IFD offset 0 is at 88)
  entry(64, 0x0001, 2, 2, 0x4e);
  entry(76, 0x0002, 5, 1, 92);
  tiff.writeUInt32LE(52, 92);
  tiff.writeUInt32LE(1, 96);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/** A real JPEG (quadrant pixels), with an Exif segment after SOI when `exif` is given, and `trailing` bytes after EOI. */
export function jpegImage(width: number, height: number, options: { exif?: Buffer; trailing?: Buffer } = {}): Buffer {
  const encoded = jpeg.encode({ width, height, data: quadrantPixels(width, height) }, 90).data;
  return Buffer.concat([
    encoded.subarray(0, 2),
    options.exif ?? Buffer.alloc(0),
    encoded.subarray(2),
    options.trailing ?? Buffer.alloc(0),
  ]);
}

const pngChunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
};

/** A real PNG (quadrant pixels) with a tEXt chunk per entry of `text`, right after IHDR. */
export function pngImage(width: number, height: number, text: Record<string, string> = {}): Buffer {
  const png = new pngjs.PNG({ width, height });
  png.data = quadrantPixels(width, height);
  const encoded = pngjs.PNG.sync.write(png);
  const chunks = Object.entries(text).map(([key, value]) =>
    pngChunk('tEXt', Buffer.from(`${key}\0${value}`, 'latin1')),
  );
  return Buffer.concat([encoded.subarray(0, 33), ...chunks, encoded.subarray(33)]);
}

/** A PNG whose IHDR claims `width`×`height` (its pixel data is one empty IDAT): a decompression-bomb stand-in. */
export function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    PNG_BYTES.subarray(0, 8),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.alloc(0)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A decompression bomb: IHDR claims `width`×`height` RGBA (interlaced or not), and one IDAT
 * holds `inflatedBytes` of zeros deflated (a few hundred bytes per MB): far more than the
 * header allows, in a file of a few tens of KB.
 */
export function pngBomb({
  width,
  height,
  interlaced,
  inflatedBytes,
}: {
  width: number;
  height: number;
  interlaced: boolean;
  inflatedBytes: number;
}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, interlaced ? 1 : 0], 8);
  const idat = deflateSync(Buffer.alloc(inflatedBytes), { level: 9 });
  return Buffer.concat([
    PNG_BYTES.subarray(0, 8),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real JPEG whose frame header is patched to claim `width`×`height`. */
export function jpegClaiming(width: number, height: number): Buffer {
  const bytes = jpegImage(8, 8);
  const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
  bytes.writeUInt16BE(height, sof + 5);
  bytes.writeUInt16BE(width, sof + 7);
  return bytes;
}
