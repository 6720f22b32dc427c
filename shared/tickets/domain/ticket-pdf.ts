import { PageSizes, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { PrintedTicket } from './printed-ticket.ts';
import { barcodeQrPng } from './qr-code.ts';

/**
 * Printable tickets: one A4 page per ticket (pdf-lib, the standard Helvetica and Courier fonts, nothing
 * embedded but the QR code's PNG). The standard fonts speak WinAnsi only: a character they cannot draw (a
 * name in another script) is printed as `?` rather than failing the page; the barcode, which the gate reads,
 * is ASCII by construction.
 */
const [WIDTH, HEIGHT] = PageSizes.A4;
const MARGIN = 56;
const QR_SIZE = 220;
const INK = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.4, 0.4, 0.4);

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  mono: PDFFont;
}

/** Characters a standard font cannot encode become `?`. */
function drawable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return [...text.replace(/[\r\n\t]+/g, ' ')].map((char) => (known.has(char.codePointAt(0)!) ? char : '?')).join('');
}

/** Lines of at most `width` points, broken at spaces (a word longer than the line is cut). */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width) line = next;
    else {
      if (line) lines.push(line);
      line = word;
      while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Draws text from the top (`y` is the baseline of its first line); answers the y below it. */
function write(page: PDFPage, font: PDFFont, text: string, size: number, y: number, maxLines = 3, color = INK): number {
  const lines = wrap(font, drawable(font, text), size, WIDTH - 2 * MARGIN).slice(0, maxLines);
  for (const line of lines) {
    page.drawText(line, { x: MARGIN, y, size, font, color });
    y -= size * 1.3;
  }
  return y;
}

function field(page: PDFPage, fonts: Fonts, label: string, value: string, y: number): number {
  page.drawText(label.toUpperCase(), { x: MARGIN, y, size: 9, font: fonts.regular, color: MUTED });
  return write(page, fonts.bold, value, 14, y - 16, 2) - 8;
}

async function drawTicket(document: PDFDocument, fonts: Fonts, ticket: PrintedTicket): Promise<void> {
  const page = document.addPage([WIDTH, HEIGHT]);
  let y = HEIGHT - MARGIN - 24;
  y = write(page, fonts.bold, ticket.eventTitle, 24, y) - 6;
  if (ticket.when) y = write(page, fonts.regular, ticket.when, 13, y, 2);
  if (ticket.venue) y = write(page, fonts.regular, ticket.venue, 13, y, 2);
  y -= 18;
  y = field(page, fonts, 'Attendee', ticket.attendee, y);
  y = field(page, fonts, 'Ticket type', ticket.typeName, y);
  if (ticket.wave) y = field(page, fonts, 'Wave', ticket.wave, y);
  if (ticket.price) y = field(page, fonts, 'Price', ticket.price, y);

  const qr = await document.embedPng(await barcodeQrPng(ticket.barcode));
  const qrTop = y - 12;
  page.drawImage(qr, { x: (WIDTH - QR_SIZE) / 2, y: qrTop - QR_SIZE, width: QR_SIZE, height: QR_SIZE });
  const code = drawable(fonts.mono, ticket.barcode);
  const codeWidth = fonts.mono.widthOfTextAtSize(code, 16);
  page.drawText(code, { x: (WIDTH - codeWidth) / 2, y: qrTop - QR_SIZE - 24, size: 16, font: fonts.mono, color: INK });

  const footer = `Ticket ${ticket.ticketId}${ticket.orderId === null ? '' : `, order ${ticket.orderId}`}. Show this page or its code at the entrance; it admits once.`;
  write(page, fonts.regular, footer, 9, MARGIN, 2, MUTED);
}

/** One page per ticket, in the order given. */
export async function ticketsPdf(tickets: readonly PrintedTicket[], title: string): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setTitle(title);
  document.setCreator('Ticketing API');
  const fonts: Fonts = {
    regular: await document.embedFont(StandardFonts.Helvetica),
    bold: await document.embedFont(StandardFonts.HelveticaBold),
    mono: await document.embedFont(StandardFonts.Courier),
  };
  for (const ticket of tickets) await drawTicket(document, fonts, ticket);
  return document.save();
}
