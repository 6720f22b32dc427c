import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '#shared/clock';
import { deleteTicket } from '#shared/tickets/use-cases/edit-ticket';
import { createWaiver, publishWaiverVersion, ticketSignatures } from '#shared/events/data/waivers';
import type { Event } from '#shared/events/domain/event';
import type { Ticket } from '#shared/tickets/domain/ticket';
import type { Waiver } from '#shared/events/domain/waivers';
import { formatInTimeZone } from '#shared/domain/zoned-time';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { SYSTEM } from '../support/tickets.ts';
import { call } from '../support/api.ts';
import { JPEG_BYTES, PNG_BYTES } from '../support/images.ts';
import { adminToken } from '../support/tokens.ts';

const BASE = '/api/v2/tickets';
let token: string;

beforeAll(async () => {
  token = await adminToken();
});
afterEach(() => resetClock());

interface Fixture {
  event: Event;
  ticket: Ticket;
  eventWide: Waiver;
  dayOf: Waiver;
  forType: Waiver;
}

/** An event in Berlin with an event-wide, a day-of and a type waiver for the ticket, plus waivers it must not see. */
async function fixture(): Promise<Fixture> {
  const event = await seedEvent({ timezone: 'Europe/Berlin' });
  const other = await seedEvent();
  const [typeA, typeB] = event.ticketTypes.map((type) => type.id) as [number, number];
  // One after the other, so the ids (and the list order) follow the order written here.
  const eventWide = await createWaiver({
    eventId: event.id,
    title: 'Liability release',
    text: 'I take part at my own risk.',
  });
  const dayOf = await createWaiver({
    eventId: event.id,
    title: 'Fit to race today',
    kind: 'day-of',
    text: 'I feel well today.',
  });
  const forType = await createWaiver({
    eventId: event.id,
    ticketTypeId: typeA,
    title: 'Course rules',
    text: 'I know the course rules.',
  });
  await createWaiver({ eventId: event.id, ticketTypeId: typeB, title: 'VIP area rules', text: 'Not for this ticket.' });
  await createWaiver({ eventId: other.id, title: 'Other event', text: 'Not for this ticket either.' });
  const [ticket] = await seedTickets(event, typeA, 1);
  return { event, ticket: ticket!, eventWide, dayOf, forType };
}

const list = (id: number, status?: string) =>
  call('GET', `${BASE}/${id}/waivers${status ? `?signedStatus=${status}` : ''}`, { token });
const sign = (id: number, body: unknown) => call('POST', `${BASE}/${id}/sign-waivers`, { token, body });
const TEXT = { type: 'text', text: 'Jane Doe' };
const bucketUrl = (key: string) => `${process.env.PHOTO_BASE_URL}/${key}`;

describe('GET /tickets/{id}/waivers', () => {
  it('lists the event-wide, day-of and ticket-type waivers of the ticket, all unsigned, and nothing else', async () => {
    const { ticket, eventWide, dayOf, forType } = await fixture();
    const response = await list(ticket.id);
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(3);
    expect(response.body.data).toEqual([
      expect.objectContaining({
        id: eventWide.id,
        title: 'Liability release',
        kind: 'standard',
        appliesTo: 'event',
        versionHash: eventWide.versionHash,
        signedStatus: 'unsigned',
        signedDate: null,
      }),
      expect.objectContaining({ id: dayOf.id, kind: 'day-of', appliesTo: 'event', signedStatus: 'unsigned' }),
      expect.objectContaining({
        id: forType.id,
        kind: 'standard',
        appliesTo: 'ticket-type',
        ticketTypeId: ticket.typeId,
        signedStatus: 'unsigned',
      }),
    ]);
    expect((await list(ticket.id, 'signed')).body.data).toEqual([]);
  });

  it('answers 404 for an unknown or deleted ticket and 400 for an unknown signedStatus', async () => {
    const { ticket } = await fixture();
    expect((await list(ticket.id, 'maybe')).status).toBe(400);
    await deleteTicket(ticket.id, SYSTEM);
    expect((await list(ticket.id)).status).toBe(404);
    expect((await list(9_999_999_999)).status).toBe(404);
  });
});

describe('POST /tickets/{id}/sign-waivers', () => {
  it('signs every unsigned waiver when none are named; then signedStatus=unsigned is empty', async () => {
    const { event, ticket } = await fixture();
    const response = await sign(ticket.id, { signature: TEXT, signerName: 'Jane Doe' });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: ticket.id, eventId: event.id });

    expect((await list(ticket.id, 'unsigned')).body.data).toEqual([]);
    const signed = (await list(ticket.id, 'signed')).body.data as {
      signedDate: string;
      signedVersionHash: string;
      versionHash: string;
    }[];
    expect(signed).toHaveLength(3);
    const [record] = await ticketSignatures(ticket.id);
    for (const entry of signed) {
      expect(entry.signedDate).toBe(formatInTimeZone(new Date(record!.signedAt), 'Europe/Berlin'));
      expect(entry.signedDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/);
      expect(entry.signedVersionHash).toBe(entry.versionHash);
    }
  });

  it('signs only the named waivers', async () => {
    const { ticket, forType } = await fixture();
    expect((await sign(ticket.id, { waiverIds: [forType.id], signature: TEXT })).status).toBe(200);
    expect((await list(ticket.id, 'signed')).body.data.map((entry: { id: number }) => entry.id)).toEqual([forType.id]);
    expect((await list(ticket.id, 'unsigned')).body.data).toHaveLength(2);
  });

  it('treats re-signing a signed waiver as a no-op: same signed date, same signature', async () => {
    const { ticket, eventWide } = await fixture();
    await sign(ticket.id, { waiverIds: [eventWide.id], signature: TEXT });
    const before = await ticketSignatures(ticket.id);
    const firstDate = (await list(ticket.id, 'signed')).body.data[0].signedDate;

    advanceClock(10 * 60_000); // within the token's lifetime
    expect(
      (await sign(ticket.id, { waiverIds: [eventWide.id], signature: { type: 'text', text: 'Someone else' } })).status,
    ).toBe(200);
    expect(await ticketSignatures(ticket.id)).toEqual(before);
    expect((await list(ticket.id, 'signed')).body.data[0].signedDate).toBe(firstDate);
  });

  it('records each waiver once when five signings of one ticket race', async () => {
    const { ticket } = await fixture();
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, n) => sign(ticket.id, { signature: { type: 'text', text: `Signer ${n}` } })),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    const records = await ticketSignatures(ticket.id);
    expect(records.map((record) => record.waiverId).sort()).toEqual(
      [...new Set(records.map((record) => record.waiverId))].sort(),
    );
    expect(records).toHaveLength(3);
    expect((await list(ticket.id, 'unsigned')).body.data).toEqual([]);
  });

  it('keeps a waiver signed when a new version is published, naming the version that was signed', async () => {
    const { ticket, eventWide } = await fixture();
    await sign(ticket.id, { waiverIds: [eventWide.id], signature: TEXT });
    const updated = await publishWaiverVersion(eventWide, 'I take part at my own risk, 2027 edition.');
    const entry = (await list(ticket.id, 'signed')).body.data[0];
    expect(entry).toMatchObject({
      id: eventWide.id,
      versionHash: updated.versionHash,
      signedVersionHash: eventWide.versionHash,
    });
    expect(updated.versionHash).not.toBe(eventWide.versionHash);
  });

  it('stores the signature image in the bucket, byte for byte, with its type', async () => {
    const { ticket } = await fixture();
    const response = await sign(ticket.id, {
      signature: { type: 'image', mediaType: 'image/png', data: PNG_BYTES.toString('base64') },
    });
    expect(response.status).toBe(200);
    const records = await ticketSignatures(ticket.id);
    expect(new Set(records.map((record) => record.signatureKey)).size).toBe(1);
    expect(records[0]!.signatureKey).toMatch(new RegExp(`^signatures/tickets/${ticket.id}/[0-9a-f]{32}\\.png$`));
    const object = await fetch(bucketUrl(records[0]!.signatureKey));
    expect(object.status).toBe(200);
    expect(object.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await object.arrayBuffer()).equals(PNG_BYTES)).toBe(true);
  });

  it('stores an SVG signature sanitised: the script and the event handler are gone', async () => {
    const { ticket } = await fixture();
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><path d="M0 0L10 10" stroke="#000"/></svg>';
    expect((await sign(ticket.id, { signature: { type: 'svg', svg } })).status).toBe(200);
    const [record] = await ticketSignatures(ticket.id);
    const stored = await (await fetch(bucketUrl(record!.signatureKey))).text();
    expect(stored).toBe('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0L10 10" stroke="#000"/></svg>');
  });

  it.each([
    [
      'an SVG that is only a script',
      { signature: { type: 'svg', svg: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' } },
    ],
    [
      'an SVG with a DOCTYPE',
      { signature: { type: 'svg', svg: '<!DOCTYPE svg [<!ENTITY x "y">]><svg><path d="M0 0"/></svg>' } },
    ],
    [
      'JPEG bytes declared as PNG',
      { signature: { type: 'image', mediaType: 'image/png', data: JPEG_BYTES.toString('base64') } },
    ],
    ['an image that is not base64', { signature: { type: 'image', mediaType: 'image/png', data: '%%%' } }],
    ['an unknown signature type', { signature: { type: 'fingerprint', data: 'x' } }],
    ['no signature', { waiverIds: [1] }],
    ['an unknown field', { signature: TEXT, note: 'x' }],
  ])('refuses %s with a 400 and signs nothing', async (_name, body) => {
    const { ticket } = await fixture();
    const response = await sign(ticket.id, body);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(await ticketSignatures(ticket.id)).toEqual([]);
  });

  it('refuses waivers the ticket does not require with a 400 naming them, and signs nothing', async () => {
    const { ticket, eventWide } = await fixture();
    const response = await sign(ticket.id, { waiverIds: [eventWide.id, 9_999_999], signature: TEXT });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { path: 'body.waiverIds.1', message: 'Waiver 9999999 is not required for this ticket.' },
    ]);
    expect(await ticketSignatures(ticket.id)).toEqual([]);
  });

  it('answers 413 for a signature image above 512 KiB', async () => {
    const { ticket } = await fixture();
    const data = Buffer.concat([PNG_BYTES, Buffer.alloc(600 * 1024)]).toString('base64');
    expect((await sign(ticket.id, { signature: { type: 'image', mediaType: 'image/png', data } })).status).toBe(413);
    expect(await ticketSignatures(ticket.id)).toEqual([]);
  });

  it('answers 404 for an unknown ticket', async () => {
    expect((await sign(9_999_999_999, { signature: TEXT })).status).toBe(404);
  });
});
