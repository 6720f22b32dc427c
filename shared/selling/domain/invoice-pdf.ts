import { PageSizes, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { formatAmount, toMajor } from '../../money.ts';
import { documentTotal, type InvoiceDocument, rateTotals } from './invoice.ts';

/**
 * An invoice or a credit note as a PDF, drawn from its stored document alone (frozen when numbered), so a document
 * reads the same however often it is fetched. One A4 page with pdf-lib's standard fonts, as the printed ticket
 * (tickets/domain/ticket-pdf.ts): a character they cannot draw prints as `?`. Only the reading routes reach this
 * module, never the sale's path.
 */
const [WIDTH, HEIGHT] = PageSizes.A4;
const MARGIN = 50;
const INK = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.4, 0.4, 0.4);
/** The columns' left edges: text, quantity, tax rate, net, tax, gross. */
const COLUMNS: readonly number[] = [MARGIN, 245, 280, 330, 405, 475];
/** A page holds this many lines; an order's types, fee and shipping are far fewer. */
const MOST_LINES = 40;

const drawable = (font: PDFFont, text: string): string => {
  const known = new Set(font.getCharacterSet());
  return [...text.replace(/[\r\n\t]+/g, ' ')].map((char) => (known.has(char.codePointAt(0)!) ? char : '?')).join('');
};

class Sheet {
  y = HEIGHT - MARGIN;
  constructor(
    private readonly page: PDFPage,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
  ) {}

  text(
    text: string,
    options: { x?: number; size?: number; bold?: boolean; muted?: boolean; width?: number } = {},
  ): void {
    const { x = MARGIN, size = 10, bold = false, muted = false } = options;
    const width = options.width ?? WIDTH - MARGIN - x;
    const font = bold ? this.bold : this.regular;
    let shown = drawable(font, text);
    while (shown.length > 1 && font.widthOfTextAtSize(shown, size) > width) shown = shown.slice(0, -1);
    this.page.drawText(shown, { x, y: this.y, size, font, color: muted ? MUTED : INK });
  }

  row(cells: readonly string[], bold = false): void {
    cells.forEach((cell, at) => {
      const x = COLUMNS[at]!;
      if (!cell) return;
      this.text(cell, { x, bold, width: (COLUMNS[at + 1] ?? WIDTH - MARGIN) - x - 4 });
    });
    this.next();
  }

  next(lines = 1, size = 10): void {
    this.y -= size * 1.4 * lines;
  }
}

/** The buyer as made out: a business buyer's company first, its address (a line per line given) and tax id. */
const buyerLines = ({ name, email, company, taxId, address }: InvoiceDocument['buyer']): string[] => [
  ...(company ? [company] : []),
  name,
  ...(address ? address.split(/\r?\n/) : []),
  email,
  ...(taxId ? [`Tax id ${taxId}`] : []),
];

/** The document's one page. */
export async function drawInvoice(document: InvoiceDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${titleOf(document)} ${document.number}`);
  const sheet = new Sheet(
    pdf.addPage([WIDTH, HEIGHT]),
    await pdf.embedFont(StandardFonts.Helvetica),
    await pdf.embedFont(StandardFonts.HelveticaBold),
  );
  const money = (minor: number) => formatAmount(toMajor(minor, document.currency), document.currency);
  sheet.text(`${titleOf(document)} ${document.number}`, { size: 18, bold: true });
  sheet.next(2);
  sheet.text(`Issued ${document.issuedAt.slice(0, 10)} for order ${document.orderId}`, { muted: true });
  sheet.next();
  if (document.corrects) sheet.text(`Corrects invoice ${document.corrects}`, { bold: true });
  sheet.next(2);
  for (const [label, lines] of [
    ['Seller', [document.seller.name, document.seller.address, `Tax id ${document.seller.taxId}`]],
    ['Buyer', buyerLines(document.buyer)],
  ] as const) {
    sheet.text(label, { bold: true });
    sheet.next();
    for (const line of lines) {
      sheet.text(line);
      sheet.next();
    }
    sheet.next();
  }
  sheet.row(['Item', 'Qty', 'Rate', 'Net', 'Tax', 'Total'], true);
  for (const line of document.lines.slice(0, MOST_LINES))
    sheet.row([
      line.text,
      String(line.quantity),
      line.rate === undefined ? '-' : `${line.rate} %`,
      money(line.gross - line.tax),
      money(line.tax),
      money(line.gross),
    ]);
  sheet.next();
  for (const rate of rateTotals(document.lines))
    sheet.row([`${rate.name} ${rate.rate} %`, '', '', money(rate.net), money(rate.tax), money(rate.gross)]);
  sheet.row(['Total', '', '', '', '', money(documentTotal(document))], true);
  return pdf.save();
}

const titleOf = (document: Pick<InvoiceDocument, 'kind'>): string =>
  document.kind === 'invoice' ? 'Invoice' : 'Credit note';

/** The file name a download offers: `invoice-2027-C-000042.pdf`. */
export const invoiceFileName = (document: Pick<InvoiceDocument, 'kind' | 'number'>): string =>
  `${document.kind === 'invoice' ? 'invoice' : 'credit-note'}-${document.number}.pdf`;
