import { inflateSync } from 'node:zlib';
import { AppError, TooLarge, UnsupportedMediaType, ValidationError } from '../../errors.ts';
import { sniffImageType, type ImageType } from '../../domain/image-type.ts';

/**
 * Profile photos are decoded and re-encoded before they are stored (the OpenAPI description
 * of POST /tickets/{id}/profile-photo): only the pixels survive, so EXIF (GPS included), text chunks, comments and
 * whatever follows the image (HTML behind JPEG magic bytes) never reach the bucket.
 * Pure JS (jpeg-js, pngjs), so it runs in any Lambda without a native layer; only the
 * upload route's bundle imports this module, and the decoders load at its first upload,
 * not at the function's cold start. WebP has no pure-JS encoder here, so it is
 * refused rather than stored as uploaded.
 */

/**
 * The decoders, loaded once per container at the first photo (esbuild keeps them in the bundle, evaluated on demand).
 * pngjs's sync reader and writer alone: its main module adds the stream classes (about 8 KB) this never uses.
 */
const codecs = async () => {
  const [jpeg, png] = await Promise.all([import('jpeg-js'), import('pngjs/lib/png-sync.js')]);
  return { jpeg: jpeg.default, png: { read: png.read, write: png.write } };
};
export const MAX_PHOTO_SIDE = 4096;
export const MAX_PHOTO_PIXELS = MAX_PHOTO_SIDE * MAX_PHOTO_SIDE;
export const PHOTO_MEDIA_TYPES = ['image/jpeg', 'image/png'] as const;
/**
 * Interlaced PNGs at most this many pixels: pngjs inflates them without a bound of its own
 * (non-interlaced ones it bounds by the header's size), so they are also inflated first
 * here, bounded by what their header allows (`pngRawBytes`); phones and cameras do not
 * interlace, so the cap costs nobody a photo.
 */
export const MAX_INTERLACED_PIXELS = 2_000_000;
const JPEG_QUALITY = 85;
/** jpeg-js's own allocation ceiling; a 16.8 MP photo needs about 200 MB of it (functions have 1024 MB). */
const JPEG_MAX_MEMORY_MB = 512;

export interface CleanPhoto {
  bytes: Uint8Array;
  type: ImageType;
  width: number;
  height: number;
}

interface Header {
  width: number;
  height: number;
  /** EXIF orientation 1–8 (1: as stored). */
  orientation: number;
  /** PNG only: what IHDR says the pixel data is. */
  png?: PngLayout;
}

interface PngLayout {
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
}

/** JPEG or PNG bytes in, freshly encoded bytes of the same format out; refusals are 415, 413 or 400. */
export async function reencodePhoto(bytes: Uint8Array): Promise<CleanPhoto> {
  if (bytes.length === 0)
    throw new ValidationError('The file is empty.', [{ path: 'body.file', message: 'The file is empty.' }]);
  const type = sniffImageType(bytes);
  if (!type || type.mediaType === 'image/webp') {
    throw new UnsupportedMediaType(
      `A profile photo must be ${PHOTO_MEDIA_TYPES.join(' or ')} (judged by the file's content; WebP, GIF, SVG and others are refused).`,
    );
  }
  try {
    const header = type.mediaType === 'image/png' ? pngHeader(bytes) : jpegHeader(bytes);
    if (!header) throw notDecodable(type);
    const { width, height } = header;
    if (width > MAX_PHOTO_SIDE || height > MAX_PHOTO_SIDE || width * height > MAX_PHOTO_PIXELS) {
      throw new TooLarge(
        `The image is ${width}×${height} pixels: at most ${MAX_PHOTO_SIDE} per side and ${MAX_PHOTO_PIXELS} pixels in all.`,
      );
    }
    if (header.png?.interlaced) checkInterlacedPng(bytes, header, header.png, type);
    const { jpeg, png } = await codecs();
    return type.mediaType === 'image/png'
      ? reencodePng(png, bytes, type)
      : reencodeJpeg(jpeg, bytes, type, header.orientation);
  } catch (error) {
    // Whatever the decoders throw on hostile bytes is the client's malformed file (400), never a 500.
    if (error instanceof AppError) throw error;
    throw notDecodable(type);
  }
}

const notDecodable = (type: ImageType) =>
  new ValidationError(`The file starts like ${type.mediaType} but does not decode as one.`, [
    { path: 'body.file', message: `Not a valid ${type.mediaType} image.` },
  ]);

type Codecs = Awaited<ReturnType<typeof codecs>>;

function reencodeJpeg(jpeg: Codecs['jpeg'], bytes: Uint8Array, type: ImageType, orientation: number): CleanPhoto {
  const decoded = jpeg.decode(bytes, {
    useTArray: true,
    formatAsRGBA: true,
    // A truncated or corrupt stream is refused, not padded with grey.
    tolerantDecoding: false,
    maxResolutionInMP: MAX_PHOTO_PIXELS / 1e6,
    maxMemoryUsageInMB: JPEG_MAX_MEMORY_MB,
  });
  // EXIF goes, so its orientation is applied to the pixels first (else a phone's portrait photo turns sideways).
  const upright = orient(decoded.width, decoded.height, decoded.data, orientation);
  const encoded = jpeg.encode({ ...upright, data: upright.data }, JPEG_QUALITY);
  return { bytes: new Uint8Array(encoded.data), type, width: upright.width, height: upright.height };
}

function reencodePng(sync: Codecs['png'], bytes: Uint8Array, type: ImageType): CleanPhoto {
  const png = sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  // The writer emits IHDR, IDAT and IEND only: tEXt/iTXt/zTXt, eXIf, tIME and the like are dropped.
  const encoded = sync.write(png, { colorType: 6 });
  return { bytes: new Uint8Array(encoded), type, width: png.width, height: png.height };
}

/** Size and layout from IHDR (always the first chunk), read before anything is inflated. */
function pngHeader(bytes: Uint8Array): Header | undefined {
  if (bytes.length < 29 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  return {
    width: view.getUint32(16),
    height: view.getUint32(20),
    orientation: 1,
    png: { bitDepth: bytes[24]!, colorType: bytes[25]!, interlaced: bytes[28] === 1 },
  };
}

/** Samples per pixel of each PNG colour type (grey, RGB, palette, grey + alpha, RGBA). */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7's seven passes: [x start, y start, x step, y step]. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** The exact size of the inflated pixel data IHDR describes (each row: a filter byte, then its packed samples); undefined for an impossible layout. */
export function pngRawBytes(
  width: number,
  height: number,
  { bitDepth, colorType, interlaced }: PngLayout,
): number | undefined {
  const channels = PNG_CHANNELS[colorType];
  if (!channels || ![1, 2, 4, 8, 16].includes(bitDepth)) return undefined;
  const rows = (w: number, h: number) => (w > 0 && h > 0 ? h * (1 + Math.ceil((w * channels * bitDepth) / 8)) : 0);
  if (!interlaced) return rows(width, height);
  return ADAM7.reduce(
    (sum, [x0, y0, dx, dy]) => sum + rows(Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)),
    0,
  );
}

/**
 * An interlaced PNG: refused above MAX_INTERLACED_PIXELS (413), else its IDAT data inflated
 * with the output bounded by what IHDR allows, so a bomb (a small file that inflates to
 * hundreds of MB) stops at that bound with a 400 instead of filling the function's memory.
 */
function checkInterlacedPng(bytes: Uint8Array, header: Header, layout: PngLayout, type: ImageType): void {
  if (header.width * header.height > MAX_INTERLACED_PIXELS) {
    throw new TooLarge(
      `The image is an interlaced PNG of ${header.width}×${header.height} pixels: interlaced PNGs at most ${MAX_INTERLACED_PIXELS} pixels (save it without interlacing).`,
    );
  }
  const bound = pngRawBytes(header.width, header.height, layout);
  if (bound === undefined) throw notDecodable(type);
  try {
    inflateSync(idatData(bytes), { maxOutputLength: bound });
  } catch {
    throw new ValidationError("The PNG's pixel data inflates to more than its header allows (or is corrupt).", [
      { path: 'body.file', message: 'PNG data does not match its header.' },
    ]);
  }
}

/** The IDAT chunks' data, joined (chunks walked by their lengths; 400 on a chunk that runs past the file). */
function idatData(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const parts: Uint8Array[] = [];
  for (let at = 8; at + 12 <= bytes.length; ) {
    const length = view.getUint32(at);
    const name = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (at + 12 + length > bytes.length) break;
    if (name === 'IDAT') parts.push(bytes.subarray(at + 8, at + 8 + length));
    if (name === 'IEND') break;
    at += 12 + length;
  }
  return Buffer.concat(parts);
}

/** Size from the frame header and orientation from the EXIF segment, walking the markers before any pixels are decoded. */
function jpegHeader(bytes: Uint8Array): Header | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  let orientation = 1;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    } // fill byte
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      at += 2;
      continue;
    } // no length
    const length = view.getUint16(at + 2);
    if (length < 2 || at + 2 + length > bytes.length) return undefined;
    if (marker === 0xe1) orientation = exifOrientation(view, at + 4, at + 2 + length) ?? orientation;
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 7) return undefined;
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7), orientation };
    }
    at += 2 + length;
  }
  return undefined;
}

/** Tag 0x0112 of IFD0 in an APP1 "Exif\0\0" segment [start, end). */
function exifOrientation(view: DataView, start: number, end: number): number | undefined {
  const tiff = start + 6;
  if (end - start < 14 || view.getUint32(start) !== 0x45786966 || view.getUint16(start + 4) !== 0) return undefined;
  const little = view.getUint16(tiff) === 0x4949;
  const u16 = (at: number) => (at + 2 <= end ? view.getUint16(at, little) : undefined);
  const ifd = tiff + view.getUint32(tiff + 4, little);
  const count = u16(ifd) ?? 0;
  for (let entry = ifd + 2; entry + 12 <= end && entry < ifd + 2 + count * 12; entry += 12) {
    if (u16(entry) !== 0x0112) continue;
    const value = u16(entry + 8);
    return value !== undefined && value >= 1 && value <= 8 ? value : undefined;
  }
  return undefined;
}

/**
 * RGBA pixels turned upright by EXIF orientation: 2 mirror, 3 rotate 180°, 4 flip,
 * 5 transpose, 6 rotate 90° clockwise, 7 transverse, 8 rotate 90° counter-clockwise.
 */
export function orient(
  width: number,
  height: number,
  data: Uint8Array,
  orientation: number,
): { width: number; height: number; data: Uint8Array } {
  if (orientation < 2 || orientation > 8) return { width, height, data };
  const swap = orientation >= 5;
  const [outWidth, outHeight] = swap ? [height, width] : [width, height];
  const out = new Uint8Array(data.length);
  // One 32-bit word per RGBA pixel; jpeg-js hands over a fresh, aligned array.
  const source = new Uint32Array(
    (data.byteOffset % 4 === 0 ? data : data.slice()).buffer,
    data.byteOffset % 4 === 0 ? data.byteOffset : 0,
    width * height,
  );
  const target = new Uint32Array(out.buffer, 0, width * height);
  const w = width - 1;
  const h = height - 1;
  const targetIndex: (x: number, y: number) => number =
    orientation === 2
      ? (x, y) => y * outWidth + (w - x)
      : orientation === 3
        ? (x, y) => (h - y) * outWidth + (w - x)
        : orientation === 4
          ? (x, y) => (h - y) * outWidth + x
          : orientation === 5
            ? (x, y) => x * outWidth + y
            : orientation === 6
              ? (x, y) => x * outWidth + (h - y)
              : orientation === 7
                ? (x, y) => (w - x) * outWidth + (h - y)
                : (x, y) => (w - x) * outWidth + y;
  for (let y = 0, from = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1, from += 1) target[targetIndex(x, y)] = source[from]!;
  }
  return { width: outWidth, height: outHeight, data: out };
}
