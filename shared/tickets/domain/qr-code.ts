import QRCode from 'qrcode';

/**
 * A ticket's barcode as the QR code the gate scans: qrcode's PNG rendering, error correction M (a crumpled
 * print still scans), the standard 4-module quiet zone, 8 pixels a module (sharp at 200 pt in print).
 * The printed ticket (ticket-pdf.ts) and the order mail embed the same image.
 */
export const QR_OPTIONS = { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 8 } as const;

export const barcodeQrPng = (barcode: string): Promise<Buffer> => QRCode.toBuffer(barcode, QR_OPTIONS);
