/**
 * What an image really is, judged by its first bytes (magic numbers), never by the
 * file name or the declared Content-Type, which the client chooses freely.
 */
export type ImageMediaType = 'image/jpeg' | 'image/png' | 'image/webp';

export interface ImageType {
  mediaType: ImageMediaType;
  extension: 'jpg' | 'png' | 'webp';
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte);

const JPEG = [0xff, 0xd8, 0xff] as const;
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;
const RIFF = [0x52, 0x49, 0x46, 0x46] as const; // "RIFF"
const WEBP = [0x57, 0x45, 0x42, 0x50] as const; // "WEBP" at offset 8
const VP8 = [0x56, 0x50, 0x38] as const; // "VP8" (VP8 , VP8L, VP8X chunk) at offset 12

/** The JPEG, PNG or WebP type of `bytes`, or undefined for anything else. */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  if (startsWith(bytes, JPEG)) return { mediaType: 'image/jpeg', extension: 'jpg' };
  if (startsWith(bytes, PNG)) return { mediaType: 'image/png', extension: 'png' };
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8) && startsWith(bytes, VP8, 12)) {
    return { mediaType: 'image/webp', extension: 'webp' };
  }
  return undefined;
}
