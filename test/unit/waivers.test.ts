import { describe, expect, it } from 'vitest';
import { TooLarge, ValidationError } from '#shared/errors';
import {
  MAX_SIGNATURE_IMAGE_BYTES,
  MAX_SIGNATURE_SVG_BYTES,
  prepareSignature,
  SignWaiversBody,
  ticketWaivers,
  versionHash,
  waiversToSign,
  type Waiver,
  type WaiverSignature,
} from '#shared/events/domain/waivers';
import { GIF_BYTES, JPEG_BYTES, PNG_BYTES } from '../support/images.ts';

const waiver = (id: number, ticketTypeId: number | null, kind: Waiver['kind'] = 'standard'): Waiver => ({
  id,
  eventId: 1,
  ticketTypeId,
  title: `Waiver ${id}`,
  kind,
  versionHash: versionHash(`text ${id}`),
  versionPublished: '2026-05-01T00:00:00.000Z',
  created: '2026-05-01T00:00:00.000Z',
});

const signature = (waiverId: number, signedAt: string, hash = 'old'): WaiverSignature => ({
  ticketId: 7,
  waiverId,
  versionHash: hash,
  signatureKey: 'signatures/tickets/7/x.txt',
  signatureType: 'text',
  signerName: null,
  signedBy: 1,
  signedAt,
});

describe('versionHash', () => {
  it('is the SHA-256 of the text in hex', () => {
    expect(versionHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('ticketWaivers', () => {
  const required = [waiver(5, 20), waiver(3, null, 'day-of'), waiver(4, null)];

  it("lists event-wide waivers first, then the type's, with status and the signed date in the event's zone", () => {
    const list = ticketWaivers(required, [signature(4, '2026-06-01T07:30:00.000Z')], 'Europe/Berlin');
    expect(list.map((entry) => [entry.id, entry.appliesTo, entry.kind, entry.signedStatus, entry.signedDate])).toEqual([
      [3, 'event', 'day-of', 'unsigned', null],
      [4, 'event', 'standard', 'signed', '2026-06-01T09:30:00+02:00'],
      [5, 'ticket-type', 'standard', 'unsigned', null],
    ]);
  });

  it('keeps the signed version apart from the current one', () => {
    const [entry] = ticketWaivers([waiver(4, null)], [signature(4, '2026-06-01T07:30:00.000Z', 'v1')], 'UTC');
    expect(entry).toMatchObject({ versionHash: versionHash('text 4'), signedVersionHash: 'v1' });
  });

  it('filters by signed status', () => {
    const signatures = [signature(4, '2026-06-01T07:30:00.000Z')];
    expect(ticketWaivers(required, signatures, 'UTC', 'signed').map((entry) => entry.id)).toEqual([4]);
    expect(ticketWaivers(required, signatures, 'UTC', 'unsigned').map((entry) => entry.id)).toEqual([3, 5]);
  });
});

describe('waiversToSign', () => {
  const required = [waiver(3, null), waiver(4, null), waiver(5, 20)];

  it('takes every unsigned waiver when none are named', () => {
    expect(waiversToSign(required, [signature(4, '2026-06-01T00:00:00Z')]).map((w) => w.id)).toEqual([3, 5]);
  });

  it('takes the named ones, skipping those already signed (re-signing is a no-op)', () => {
    expect(waiversToSign(required, [signature(4, '2026-06-01T00:00:00Z')], [4, 5, 5]).map((w) => w.id)).toEqual([5]);
  });

  it('refuses waivers the ticket does not require with a 400 naming them', () => {
    const error = (() => {
      try {
        waiversToSign(required, [], [3, 99]);
      } catch (caught) {
        return caught;
      }
    })() as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain('99');
    expect(error.errors).toEqual([{ path: 'body.waiverIds.1', message: 'Waiver 99 is not required for this ticket.' }]);
  });
});

describe('SignWaiversBody', () => {
  it('accepts the three signature types and refuses others and unknown fields', () => {
    expect(SignWaiversBody.safeParse({ signature: { type: 'text', text: 'Jane Doe' } }).success).toBe(true);
    expect(
      SignWaiversBody.safeParse({ waiverIds: [1], signature: { type: 'svg', svg: '<svg/>' }, signerName: 'J' }).success,
    ).toBe(true);
    expect(
      SignWaiversBody.safeParse({ signature: { type: 'image', mediaType: 'image/gif', data: 'AA==' } }).success,
    ).toBe(false);
    expect(SignWaiversBody.safeParse({ signature: { type: 'voice', data: 'x' } }).success).toBe(false);
    expect(SignWaiversBody.safeParse({ signature: { type: 'text', text: 'x' }, extra: 1 }).success).toBe(false);
    expect(SignWaiversBody.safeParse({ waiverIds: [], signature: { type: 'text', text: 'x' } }).success).toBe(false);
    expect(SignWaiversBody.safeParse({ signature: { type: 'text', text: '   ' } }).success).toBe(false);
  });
});

describe('prepareSignature', () => {
  it('stores text as UTF-8 plain text', () => {
    expect(prepareSignature({ type: 'text', text: 'Zoë Q.' })).toMatchObject({
      contentType: 'text/plain; charset=utf-8',
      extension: 'txt',
      bytes: Buffer.from('Zoë Q.'),
    });
  });

  it('accepts PNG and JPEG bytes, plain base64 or as a data URL', () => {
    expect(
      prepareSignature({ type: 'image', mediaType: 'image/png', data: PNG_BYTES.toString('base64') }),
    ).toMatchObject({ contentType: 'image/png', extension: 'png' });
    const jpeg = prepareSignature({
      type: 'image',
      mediaType: 'image/jpeg',
      data: `data:image/jpeg;base64,${JPEG_BYTES.toString('base64')}`,
    });
    expect(jpeg.bytes.equals(JPEG_BYTES)).toBe(true);
  });

  it('refuses bytes that are not the declared image type, or not base64, with a 400', () => {
    expect(() =>
      prepareSignature({ type: 'image', mediaType: 'image/png', data: JPEG_BYTES.toString('base64') }),
    ).toThrow(ValidationError);
    expect(() =>
      prepareSignature({ type: 'image', mediaType: 'image/png', data: GIF_BYTES.toString('base64') }),
    ).toThrow(ValidationError);
    expect(() => prepareSignature({ type: 'image', mediaType: 'image/png', data: 'not base64!' })).toThrow(
      ValidationError,
    );
  });

  it('answers 413 for an image above the limit', () => {
    const big = Buffer.concat([PNG_BYTES, Buffer.alloc(MAX_SIGNATURE_IMAGE_BYTES)]);
    expect(() => prepareSignature({ type: 'image', mediaType: 'image/png', data: big.toString('base64') })).toThrow(
      TooLarge,
    );
  });

  it('stores SVG sanitised, and refuses SVG that cannot be made safe with a 400', () => {
    const svg = prepareSignature({
      type: 'svg',
      svg: '<svg xmlns="http://www.w3.org/2000/svg" onload="x()"><path d="M0 0L1 1"/><script>x()</script></svg>',
    });
    expect(svg.contentType).toBe('image/svg+xml');
    expect(svg.bytes.toString()).toBe('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0L1 1"/></svg>');
    expect(() => prepareSignature({ type: 'svg', svg: '<svg><script>x()</script></svg>' })).toThrow(ValidationError);
  });

  it('answers 413 for SVG above the limit', () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><path d="${'M0 0'.repeat(MAX_SIGNATURE_SVG_BYTES / 4)}"/></svg>`;
    expect(() => prepareSignature({ type: 'svg', svg })).toThrow(TooLarge);
  });
});
