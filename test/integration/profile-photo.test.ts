import { beforeAll, describe, expect, it } from 'vitest';
import { deleteTicket } from '#shared/use-cases/tickets/edit-ticket';
import type { Ticket } from '#shared/domain/ticket';
import { seedEvent, seedTickets } from '../../bin/seed/tickets.ts';
import { SYSTEM } from '../support/tickets.ts';
import { call } from '../support/api.ts';
import { GIF_BYTES, JPEG_BYTES, PNG_BYTES, WEBP_BYTES } from '../support/images.ts';
import { form, type FormPart } from '../support/multipart.ts';
import { adminToken } from '../support/tokens.ts';

const BASE = '/api/v2/tickets';
const FIVE_MIB = 5 * 1024 * 1024;
let token: string;

beforeAll(async () => {
  token = await adminToken();
});

async function newTicket(): Promise<Ticket> {
  const event = await seedEvent();
  const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 1);
  return ticket!;
}

const upload = (id: number, parts: FormPart[]) => {
  const { body, contentType } = form(parts);
  return call('POST', `${BASE}/${id}/profile-photo`, { token, body, headers: { 'content-type': contentType } });
};
const file = (data: Buffer, filename = 'me.png', contentType = 'image/png'): FormPart => ({ name: 'file', filename, contentType, data });
const photoOf = async (id: number) => (await call('GET', `${BASE}/${id}`, { token })).body.data.profilePhoto as string | null;
const fetchBytes = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
};

describe('POST /tickets/{id}/profile-photo', () => {
  it('stores the photo under an unguessable key; a plain GET of profilePhoto returns the same bytes', async () => {
    const ticket = await newTicket();
    const response = await upload(ticket.id, [file(PNG_BYTES)]);
    expect(response.status).toBe(200);
    const url = response.body.data.profilePhoto as string;
    expect(url).toMatch(new RegExp(`^${process.env.PHOTO_BASE_URL}/photos/tickets/${ticket.id}/[0-9a-f]{32}\\.png$`));
    expect(await photoOf(ticket.id)).toBe(url);
    const object = await fetchBytes(url);
    expect(object.status).toBe(200);
    expect(object.type).toBe('image/png');
    expect(object.bytes.equals(PNG_BYTES)).toBe(true);
  });

  it('judges the type by the bytes, not by the declared type or file name', async () => {
    const ticket = await newTicket();
    const response = await upload(ticket.id, [file(WEBP_BYTES, 'holiday.gif', 'image/gif')]);
    expect(response.status).toBe(200);
    expect(response.body.data.profilePhoto).toMatch(/\.webp$/);
    expect((await fetchBytes(response.body.data.profilePhoto)).type).toBe('image/webp');
  });

  it('removes the replaced photo\'s object', async () => {
    const ticket = await newTicket();
    const first = (await upload(ticket.id, [file(PNG_BYTES)])).body.data.profilePhoto as string;
    const second = await upload(ticket.id, [file(JPEG_BYTES, 'me.jpg', 'image/jpeg')]);
    expect(second.status).toBe(200);
    expect(second.body.data.profilePhoto).toMatch(/\.jpg$/);
    expect((await fetchBytes(first)).status).toBe(404);
    expect((await fetchBytes(second.body.data.profilePhoto)).bytes.equals(JPEG_BYTES)).toBe(true);
  });

  it('accepts a file of exactly 5 MiB', async () => {
    const ticket = await newTicket();
    const data = Buffer.concat([JPEG_BYTES, Buffer.alloc(FIVE_MIB - JPEG_BYTES.length, 1)]);
    expect((await upload(ticket.id, [file(data, 'big.jpg', 'image/jpeg')])).status).toBe(200);
  });

  describe('refusals leave the ticket and its photo as they were', () => {
    let ticket: Ticket;
    let photo: string;
    beforeAll(async () => {
      ticket = await newTicket();
      photo = (await upload(ticket.id, [file(PNG_BYTES)])).body.data.profilePhoto;
    });

    const unchanged = async () => {
      expect(await photoOf(ticket.id)).toBe(photo);
      expect((await fetchBytes(photo)).status).toBe(200);
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

    it('answers 415 for an SVG or HTML file', async () => {
      expect((await upload(ticket.id, [file(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'x.svg', 'image/svg+xml')])).status).toBe(415);
      expect((await upload(ticket.id, [file(Buffer.from('<html><script>alert(1)</script></html>'), 'x.png')])).status).toBe(415);
      await unchanged();
    });

    it('answers 415 for a request that is not multipart/form-data', async () => {
      const raw = await call('POST', `${BASE}/${ticket.id}/profile-photo`, { token, body: PNG_BYTES, headers: { 'content-type': 'image/png' } });
      expect(raw.status).toBe(415);
      const json = await call('POST', `${BASE}/${ticket.id}/profile-photo`, { token, body: { file: PNG_BYTES.toString('base64') } });
      expect(json.status).toBe(415);
      await unchanged();
    });

    it('answers 400 when the form has no `file` field, or `file` is not a file', async () => {
      const missing = await upload(ticket.id, [{ name: 'photo', filename: 'me.png', contentType: 'image/png', data: PNG_BYTES }]);
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

  it('answers 404 for an unknown or deleted ticket', async () => {
    expect((await upload(9_999_999_999, [file(PNG_BYTES)])).status).toBe(404);
    const ticket = await newTicket();
    await deleteTicket(ticket.id, SYSTEM);
    expect((await upload(ticket.id, [file(PNG_BYTES)])).status).toBe(404);
  });
});

describe('DELETE /tickets/{id}/profile-photo', () => {
  const remove = (id: number) => call('DELETE', `${BASE}/${id}/profile-photo`, { token });

  it('clears profilePhoto and removes the object', async () => {
    const ticket = await newTicket();
    const url = (await upload(ticket.id, [file(PNG_BYTES)])).body.data.profilePhoto as string;
    const response = await remove(ticket.id);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: ticket.id, profilePhoto: null });
    expect(await photoOf(ticket.id)).toBeNull();
    expect((await fetchBytes(url)).status).toBe(404);
  });

  it('answers the ticket when it had no photo, and 404 for an unknown ticket', async () => {
    const ticket = await newTicket();
    expect((await remove(ticket.id)).body.data.profilePhoto).toBeNull();
    expect((await remove(9_999_999_999)).status).toBe(404);
  });
});
