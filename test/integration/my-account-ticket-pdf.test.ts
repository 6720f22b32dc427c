import { inflateSync } from 'node:zlib';
import { PDFName } from 'pdf-lib';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import { QR_OPTIONS } from '#shared/tickets/domain/qr-code';
import { call } from '../support/api.ts';
import { unusedCustomerId } from '../support/customers.ts';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { adminToken, customerToken } from '../support/tokens.ts';
import { countReads } from '../support/dynamo-reads.ts';
import { parsed } from '../support/pdf-text.ts';

const pdfOf = (id: number, token: string) => call('GET', `/api/v2/my-account/tickets/${id}/pdf`, { token });

/** A bought ticket of an event with a venue and a wave, in Amsterdam's time zone, and its owner's token. */
async function boughtTicket(overrides: Parameters<typeof seedEvent>[0] = {}) {
  const event = await seedEvent({
    title: 'Canal 10K',
    timezone: 'Europe/Amsterdam',
    startsAt: '2027-06-01T07:00:00Z',
    venue: 'Museumplein',
    venueAddress: 'Amsterdam',
    waveTimes: [{ name: 'Wave A', startTime: '2027-06-01T07:30:00Z', capacity: 500 }],
    ...overrides,
  });
  const customerId = unusedCustomerId();
  const order = await placeOrder(event, customerId, [event.ticketTypes[0]!.id]);
  const ticket = (await readTicketRecord(order.ticketIds[0]!))!;
  return { event, order, ticket, token: await customerToken(customerId) };
}

describe('GET /my-account/tickets/{ticketId}/pdf', () => {
  it("answers the owner one A4 page with the event, local time, venue, attendee, type, wave, barcode and the barcode's QR code", async () => {
    const { ticket, token } = await boughtTicket();
    const response = await pdfOf(ticket.id, token);
    expect(response.status, response.raw).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="ticket-${ticket.id}.pdf"`);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    const { document, text, images } = await parsed(response.bytes);
    expect(document.getPageCount()).toBe(1);
    expect(document.getTitle()).toBe(`Ticket ${ticket.id}: Canal 10K`);
    const [width, height] = [document.getPage(0).getWidth(), document.getPage(0).getHeight()];
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
    expect(text).toEqual(
      expect.arrayContaining([
        'Canal 10K',
        // 07:00 UTC is 09:00 in Amsterdam in June (CEST).
        'Tuesday, 1 June 2027 at 09:00 (Europe/Amsterdam)',
        'Museumplein, Amsterdam',
        `${ticket.partyMember} ${ticket.partyMemberLastName}`,
        'General admission',
        'Wave A, starting Tuesday, 1 June 2027 at 09:30 (Europe/Amsterdam)',
        ticket.barcode,
      ]),
    );

    // The one image is qrcode's own rendering of the barcode, pixel for pixel (pdf-lib stores the PNG's RGB, deflated).
    expect(images).toHaveLength(1);
    const expected = PNG.sync.read(await QRCode.toBuffer(ticket.barcode, QR_OPTIONS));
    const image = images[0]!;
    expect(image.dict.lookup(PDFName.of('Subtype'))).toBe(PDFName.of('Image'));
    expect(Number(image.dict.lookup(PDFName.of('Width'))?.toString())).toBe(expected.width);
    expect(Number(image.dict.lookup(PDFName.of('Height'))?.toString())).toBe(expected.height);
    const rgb = Buffer.alloc(expected.width * expected.height * 3);
    for (let pixel = 0; pixel < expected.width * expected.height; pixel++)
      expected.data.copy(rgb, pixel * 3, pixel * 4, pixel * 4 + 3);
    expect(inflateSync(image.contents).equals(rgb)).toBe(true);
  });

  it('reads the ticket and its setting in two calls: one GetItem, one BatchGetItem of the event, type and wave', async () => {
    const { ticket, token } = await boughtTicket();
    await pdfOf(ticket.id, token); // the session check, cached per container from here on
    const { result, reads } = await countReads(() => pdfOf(ticket.id, token));
    expect(result.status).toBe(200);
    expect(reads.byCommand).toEqual({ GetItemCommand: 1, BatchGetItemCommand: 1 });
    expect(reads.itemsRead).toBe(4);
  });

  it('prints the date alone when the event hides its time, and no date when it hides its date', async () => {
    const timeHidden = await boughtTicket({ hideTime: true, waveTimes: [] });
    const { text } = await parsed((await pdfOf(timeHidden.ticket.id, timeHidden.token)).bytes);
    expect(text).toContain('Tuesday, 1 June 2027');
    expect(text.join('|')).not.toContain('09:00');
    const dateHidden = await boughtTicket({ hideDate: true, waveTimes: [] });
    const hidden = await parsed((await pdfOf(dateHidden.ticket.id, dateHidden.token)).bytes);
    expect(hidden.text.join('|')).not.toContain('2027');
  });

  it('prints a character the PDF fonts cannot draw as ?, never failing the page', async () => {
    const { ticket, token } = await boughtTicket({ title: 'Marathon 東京 Zoë' });
    const response = await pdfOf(ticket.id, token);
    expect(response.status).toBe(200);
    expect((await parsed(response.bytes)).text).toContain('Marathon ?? Zoë');
  });

  it("answers another customer's ticket and a missing one 404, as problem details", async () => {
    const { ticket } = await boughtTicket();
    const stranger = await customerToken(unusedCustomerId());
    const foreign = await pdfOf(ticket.id, stranger);
    const missing = await pdfOf(999_999_999_999, stranger);
    expect(foreign.status).toBe(404);
    expect(foreign.headers['content-type']).toContain('application/problem+json');
    expect(missing.status).toBe(404);
    expect(foreign.body.title).toBe(missing.body.title);
  });

  it('refuses a cancelled ticket with 409 cancelled instead of printing a page that looks valid', async () => {
    const { ticket, token } = await boughtTicket();
    const writer = await adminToken(['tickets:read', 'tickets:write']);
    const cancel = await call('POST', `/api/v2/ticket/${ticket.id}/states`, {
      token: writer,
      body: { processState: 4 },
    });
    expect(cancel.status, cancel.raw).toBeLessThan(300);
    const response = await pdfOf(ticket.id, token);
    expect(response.status).toBe(409);
    expect(response.body.reason).toBe('cancelled');
  });

  it('refuses a path id that is not a whole positive number with 400 naming it', async () => {
    const token = await customerToken(unusedCustomerId());
    const response = await call('GET', '/api/v2/my-account/tickets/abc/pdf', { token });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe('path.ticketId');
  });
});
