/** Image bytes for tests: each starts with its format's real signature. */

/** A complete 1×1 PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A JPEG header (JFIF APP0) followed by filler. */
export const JPEG_BYTES = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]), Buffer.alloc(64, 7)]);
/** A RIFF/WEBP container with a VP8 chunk header followed by filler. */
export const WEBP_BYTES = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(32, 1)]);
export const GIF_BYTES = Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00', 'latin1');
