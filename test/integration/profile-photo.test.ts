import { beforeAll, describe, expect, it } from 'vitest';
import { deleteTicket } from '#shared/tickets/use-cases/edit-ticket';
import type { Ticket } from '#shared/tickets/domain/ticket';
import { oneTicket, SYSTEM } from '../support/tickets.ts';
import { call } from '../support/api.ts';
import jpeg from 'jpeg-js';
import {
  exifSegment,
  GIF_BYTES,
  JPEG_BYTES,
  jpegClaiming,
  jpegImage,
  PNG_BYTES,
  pngBomb,
  pngClaiming,
  pngImage,
  WEBP_BYTES,
} from '../support/images.ts';
import { form, type FormPart } from '../support/multipart.ts';
import { adminToken } from '../support/tokens.ts';

const BASE = '/api/v2/tickets';
const FIVE_MIB = 5 * 1024 * 1024;
let token: string;

beforeAll(async () => {
  token = await adminToken();
});

const upload = (id: number, parts: FormPart[]) => {
  const { body, contentType } = form(parts);
  return call('POST', `${BASE}/${id}/profile-photo`, { token, body, headers: { 'content-type': contentType } });
};
const file = (data: Buffer, filename = 'me.png', contentType = 'image/png'): FormPart => ({
  name: 'file',
  filename,
  contentType,
  data,
});
const photoOf = async (id: number) =>
  (await call('GET', `${BASE}/${id}`, { token })).body.data.profilePhoto as string | null;
const fetchBytes = async (url: string) => {
  const response = await fetch(url);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
};
/** The ticket's objects in the bucket (s3rver answers a ListObjects GET on the bucket URL). */
const storedKeys = async (id: number) => {
  const listing = await (await fetch(`${process.env.PHOTO_BASE_URL}?prefix=photos/tickets/${id}/`)).text();
  return [...listing.matchAll(/<Key>([^<]+)<\/Key>/g)].map((match) => match[1]);
};
const JPEG_PHOTO = jpegImage(32, 16);

describe('POST /tickets/{id}/profile-photo', () => {
  it('stores the re-encoded photo under an unguessable key; a plain GET of profilePhoto returns it', async () => {
    const { ticket } = await oneTicket();
    const response = await upload(ticket.id, [file(PNG_BYTES)]);
    expect(response.status).toBe(200);
    const url = response.body.data.profilePhoto as string;
    expect(url).toMatch(new RegExp(`^${process.env.PHOTO_BASE_URL}/photos/tickets/${ticket.id}/[0-9a-f]{32}\\.png$`));
    expect(await photoOf(ticket.id)).toBe(url);
    const object = await fetchBytes(url);
    expect(object.status).toBe(200);
    expect(object.type).toBe('image/png');
    expect(object.bytes.subarray(0, 8).equals(PNG_BYTES.subarray(0, 8))).toBe(true);
    expect(await storedKeys(ticket.id)).toEqual([url.slice(`${process.env.PHOTO_BASE_URL}/`.length)]);
  });

  it('judges the type by the bytes, not by the declared type or file name', async () => {
    const { ticket } = await oneTicket();
    const response = await upload(ticket.id, [file(JPEG_PHOTO, 'holiday.gif', 'image/gif')]);
    expect(response.status).toBe(200);
    expect(response.body.data.profilePhoto).toMatch(/\.jpg$/);
    expect((await fetchBytes(response.body.data.profilePhoto)).type).toBe('image/jpeg');
  });

  it('stores a JPEG without its EXIF (GPS included), upright, with the expected dimensions', async () => {
    const { ticket } = await oneTicket();
    // Orientation 6: stored landscape, shown portrait (a phone held upright).
    const input = jpegImage(32, 16, {
      exif: exifSegment(6),
      trailing: Buffer.from('<html><script>alert(1)</script></html>'),
    });
    const response = await upload(ticket.id, [file(input, 'me.jpg', 'image/jpeg')]);
    expect(response.status).toBe(200);
    const stored = (await fetchBytes(response.body.data.profilePhoto)).bytes;
    for (const text of ['Exif', 'LeakyPhone', '<script']) expect(stored.includes(Buffer.from(text)), text).toBe(false);
    expect(stored.includes(Buffer.from([0xff, 0xe1]))).toBe(false); // no APP1 segment at all
    const decoded = jpeg.decode(stored, { useTArray: true });
    expect([decoded.width, decoded.height]).toEqual([16, 32]);
  });

  it('stores a PNG without its text chunks', async () => {
    const { ticket } = await oneTicket();
    const response = await upload(ticket.id, [file(pngImage(6, 4, { Comment: 'home: 1 Secret Lane' }))]);
    expect(response.status).toBe(200);
    const stored = (await fetchBytes(response.body.data.profilePhoto)).bytes;
    expect(stored.includes(Buffer.from('Secret Lane'))).toBe(false);
    expect(stored.includes(Buffer.from('tEXt'))).toBe(false);
    expect([stored.readUInt32BE(16), stored.readUInt32BE(20)]).toEqual([6, 4]);
  });

  it("removes the replaced photo's object", async () => {
    const { ticket } = await oneTicket();
    const first = (await upload(ticket.id, [file(PNG_BYTES)])).body.data.profilePhoto as string;
    const second = await upload(ticket.id, [file(JPEG_PHOTO, 'me.jpg', 'image/jpeg')]);
    expect(second.status).toBe(200);
    expect(second.body.data.profilePhoto).toMatch(/\.jpg$/);
    expect((await fetchBytes(first)).status).toBe(404);
    expect((await fetchBytes(second.body.data.profilePhoto)).status).toBe(200);
    expect(await storedKeys(ticket.id)).toHaveLength(1);
  });

  it('accepts a file of exactly 5 MiB (what follows the image is not stored)', async () => {
    const { ticket } = await oneTicket();
    const data = Buffer.concat([JPEG_PHOTO, Buffer.alloc(FIVE_MIB - JPEG_PHOTO.length, 1)]);
    expect((await upload(ticket.id, [file(data, 'big.jpg', 'image/jpeg')])).status).toBe(200);
  });

  describe('refusals leave the ticket and its photo as they were', () => {
    let ticket: Ticket;
    let photo: string;
    beforeAll(async () => {
      ({ ticket } = await oneTicket());
      photo = (await upload(ticket.id, [file(PNG_BYTES)])).body.data.profilePhoto;
    });

    const unchanged = async () => {
      expect(await photoOf(ticket.id)).toBe(photo);
      expect((await fetchBytes(photo)).status).toBe(200);
      expect(await storedKeys(ticket.id)).toHaveLength(1);
    };

    it('answers 413 for a file one byte over 5 MiB', async () => {
      const data = Buffer.concat([JPEG_BYTES, Buffer.alloc(FIVE_MIB + 1 - JPEG_BYTES.length)]);
      const response = await upload(ticket.id, [file(data, 'big.jpg', 'image/jpeg')]);
      expect(response.status).toBe(413);
      expect(response.headers['content-type']).toBe('application/problem+json');
      await unchanged();
    });

    it('answers 415 for a GIF, even when declared as PNG', async () => {
      expect((await upload(ticket.id, [file(GIF_BYTES, 'me.png', 'image/png')])).status).toBe(415);
      await unchanged();
    });

    it('answers 415 for WebP (no pure-JS encoder to re-encode it), naming JPEG and PNG', async () => {
      const response = await upload(ticket.id, [file(WEBP_BYTES, 'me.webp', 'image/webp')]);
      expect(response.status).toBe(415);
      expect(response.body.detail).toContain('image/jpeg or image/png');
      await unchanged();
    });

    it('answers 400 for HTML behind JPEG magic bytes, and for a truncated JPEG; nothing is stored', async () => {
      const html = Buffer.concat([JPEG_BYTES.subarray(0, 11), Buffer.from('<html><script>alert(1)</script></html>')]);
      for (const data of [html, JPEG_BYTES, JPEG_PHOTO.subarray(0, JPEG_PHOTO.length - 100)]) {
        const response = await upload(ticket.id, [file(data, 'me.jpg', 'image/jpeg')]);
        expect(response.status).toBe(400);
        expect(response.body.errors).toEqual([expect.objectContaining({ path: 'body.file' })]);
      }
      await unchanged();
    });

    it('answers 413 for an image above 4096 pixels a side or 4096×4096 in all, judged from its header', async () => {
      for (const data of [pngClaiming(4097, 1), pngClaiming(40_000, 40_000), jpegClaiming(1, 4097)]) {
        const response = await upload(ticket.id, [file(data)]);
        expect(response.status).toBe(413);
        expect(response.body.detail).toMatch(/at most 4096 per side/);
      }
      await unchanged();
    });

    it('answers 4xx for PNG decompression bombs, interlaced or not, from a bounded inflation; nothing is stored', async () => {
      const MB = 1024 * 1024;
      // 1000×1000 RGBA allows 4 MB of pixel data; each inflates to 64 MB from a file of ~65 KB.
      for (const interlaced of [true, false]) {
        const bomb = pngBomb({ width: 1000, height: 1000, interlaced, inflatedBytes: 64 * MB });
        expect(bomb.length).toBeLessThan(100 * 1024);
        const response = await upload(ticket.id, [file(bomb)]);
        expect(response.status, `interlaced: ${interlaced}`).toBe(400);
        expect(response.body.errors).toEqual([expect.objectContaining({ path: 'body.file' })]);
      }
      // Interlaced above 2 MP is refused from its header, before anything is inflated.
      const big = await upload(ticket.id, [
        file(pngBomb({ width: 2000, height: 1500, interlaced: true, inflatedBytes: MB })),
      ]);
      expect(big.status).toBe(413);
      expect(big.body.detail).toMatch(/interlaced PNGs at most 2000000 pixels/);
      await unchanged();
    });

    it('answers 415 for an SVG or HTML file', async () => {
      expect(
        (
          await upload(ticket.id, [
            file(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'x.svg', 'image/svg+xml'),
          ])
        ).status,
      ).toBe(415);
      expect(
        (await upload(ticket.id, [file(Buffer.from('<html><script>alert(1)</script></html>'), 'x.png')])).status,
      ).toBe(415);
      await unchanged();
    });

    it('answers 415 for a request that is not multipart/form-data', async () => {
      const raw = await call('POST', `${BASE}/${ticket.id}/profile-photo`, {
        token,
        body: PNG_BYTES,
        headers: { 'content-type': 'image/png' },
      });
      expect(raw.status).toBe(415);
      const json = await call('POST', `${BASE}/${ticket.id}/profile-photo`, {
        token,
        body: { file: PNG_BYTES.toString('base64') },
      });
      expect(json.status).toBe(415);
      await unchanged();
    });

    it('answers 400 when the form has no `file` field, or `file` is not a file', async () => {
      const missing = await upload(ticket.id, [
        { name: 'photo', filename: 'me.png', contentType: 'image/png', data: PNG_BYTES },
      ]);
      expect(missing.status).toBe(400);
      expect(missing.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'body.file' })]));
      expect((await upload(ticket.id, [{ name: 'file', value: 'not a file' }])).status).toBe(400);
      expect((await upload(ticket.id, [])).status).toBe(400);
      await unchanged();
    });

    it('answers 400 for an empty file and for a malformed body', async () => {
      expect((await upload(ticket.id, [file(Buffer.alloc(0), 'empty.png')])).status).toBe(400);
      const broken = await call('POST', `${BASE}/${ticket.id}/profile-photo`, {
        token,
        body: Buffer.from('--abc\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n'),
        headers: { 'content-type': 'multipart/form-data; boundary=abc' },
      });
      expect(broken.status).toBe(400);
      await unchanged();
    });
  });

  it('answers 404 for an unknown or deleted ticket, before the file is decoded (a bomb answers 404, not its 400)', async () => {
    expect((await upload(9_999_999_999, [file(PNG_BYTES)])).status).toBe(404);
    const bomb = pngBomb({ width: 1000, height: 1000, interlaced: true, inflatedBytes: 64 * 1024 * 1024 });
    expect((await upload(9_999_999_999, [file(bomb)])).status).toBe(404);
    expect((await upload(9_999_999_999, [file(Buffer.from('<html></html>'), 'x.png')])).status).toBe(404);
    const { ticket } = await oneTicket();
    await deleteTicket(ticket.id, SYSTEM);
    expect((await upload(ticket.id, [file(PNG_BYTES)])).status).toBe(404);
  });
});

describe('DELETE /tickets/{id}/profile-photo', () => {
  const remove = (id: number) => call('DELETE', `${BASE}/${id}/profile-photo`, { token });

  it('clears profilePhoto and removes the object', async () => {
    const { ticket } = await oneTicket();
    const url = (await upload(ticket.id, [file(PNG_BYTES)])).body.data.profilePhoto as string;
    const response = await remove(ticket.id);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: ticket.id, profilePhoto: null });
    expect(await photoOf(ticket.id)).toBeNull();
    expect((await fetchBytes(url)).status).toBe(404);
  });

  it('answers the ticket when it had no photo, and 404 for an unknown ticket', async () => {
    const { ticket } = await oneTicket();
    expect((await remove(ticket.id)).body.data.profilePhoto).toBeNull();
    expect((await remove(9_999_999_999)).status).toBe(404);
  });
});
