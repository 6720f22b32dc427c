import { createHash } from 'node:crypto';
import * as z from '../../schema.ts';
import { TooLarge, ValidationError } from '../../errors.ts';
import { sniffImageType } from '../../domain/image-type.ts';
import { sanitiseSvg, UnsafeSvg } from './svg-signature.ts';
import { formatInTimeZone } from '../../domain/zoned-time.ts';

/**
 * Waivers and their signatures: pure rules, no I/O (storage: shared/events/data/waivers.ts).
 *
 * - A waiver belongs to an event, and applies to every ticket of it (`ticketTypeId`
 *   null) or only to one ticket type's. `kind` is `standard` (signed before the event)
 *   or `day-of` (signed at the gate on the day); both are required, and listed.
 * - Its text changes by publishing versions; a version is named by the SHA-256 of its
 *   text (`versionHash`), so the same words always have the same name.
 * - A ticket signs a waiver once: the signature record links the ticket and the waiver
 *   to the version that was current then, and to the signature image or text stored in
 *   the bucket. A later version does not unsign it (the record keeps the signed hash).
 */
export const WAIVER_KINDS = ['standard', 'day-of'] as const;
export type WaiverKind = (typeof WAIVER_KINDS)[number];

/** A waiver as its routes answer it and the event keeps it. */
export const WaiverResource = z.lazy(() =>
  z.strictObject({
    id: z.int(),
    eventId: z.int(),
    /** Null: required for every ticket of the event. */
    ticketTypeId: z.nullable(z.int()),
    title: z.string(),
    kind: z.enum(WAIVER_KINDS),
    /** SHA-256 (hex) of the current version's text. */
    versionHash: z.string(),
    /** When the current version was published (ISO-8601 UTC). */
    versionPublished: z.string(),
    created: z.string(),
  }),
);
export type Waiver = z.output<typeof WaiverResource>;

export interface WaiverVersion {
  waiverId: number;
  hash: string;
  text: string;
  published: string;
}

export const SIGNATURE_TYPES = ['text', 'image', 'svg'] as const;
export type SignatureType = (typeof SIGNATURE_TYPES)[number];

export interface WaiverSignature {
  ticketId: number;
  waiverId: number;
  /** The version that was current when it was signed. */
  versionHash: string;
  /** The signature object in the photo bucket (one object per signing, shared by its waivers). */
  signatureKey: string;
  signatureType: SignatureType;
  signerName: string | null;
  /** The administrator who recorded the signing. */
  signedBy: number;
  /** ISO-8601 UTC. */
  signedAt: string;
}

export const versionHash = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

// ---- Listing -------------------------------------------------------------------------

export const SIGNED_STATUSES = ['signed', 'unsigned'] as const;
export type SignedStatus = (typeof SIGNED_STATUSES)[number];

/** One entry of `GET /tickets/{id}/waivers` (`ticketWaivers`; the OpenAPI `TicketWaiver`). */
export const TicketWaiverResource = z.lazy(() =>
  z.strictObject({
    id: z.int(),
    title: z.string(),
    kind: z.enum(WAIVER_KINDS),
    /** `event`: required for every ticket of the event; `ticket-type`: for this ticket's type. */
    appliesTo: z.enum(['event', 'ticket-type']),
    eventId: z.int(),
    ticketTypeId: z.nullable(z.int()),
    versionHash: z.string().check(z.describe("SHA-256 (hex) of the current version's text.")),
    signedStatus: z.enum(SIGNED_STATUSES),
    signedDate: z
      .nullable(z.iso.datetime({ offset: true }))
      .check(z.describe("In the event's time zone with its offset (`2026-06-01T09:30:00+02:00`); null when unsigned.")),
    signedVersionHash: z
      .nullable(z.string())
      .check(z.describe('The version the ticket signed (may be older than `versionHash`); null when unsigned.')),
  }),
);
export type TicketWaiver = z.output<typeof TicketWaiverResource>;

/** Event-wide waivers first, then the type's; by id within each. */
const byScopeThenId = (a: Waiver, b: Waiver) =>
  Number(a.ticketTypeId !== null) - Number(b.ticketTypeId !== null) || a.id - b.id;

/** The flat list of a ticket's required waivers with their signed status, optionally filtered. */
export function ticketWaivers(
  required: readonly Waiver[],
  signatures: readonly WaiverSignature[],
  timeZone: string,
  signedStatus?: SignedStatus,
): TicketWaiver[] {
  const signed = new Map(signatures.map((signature) => [signature.waiverId, signature]));
  return [...required]
    .sort(byScopeThenId)
    .map((waiver): TicketWaiver => {
      const signature = signed.get(waiver.id);
      return {
        id: waiver.id,
        title: waiver.title,
        kind: waiver.kind,
        appliesTo: waiver.ticketTypeId === null ? 'event' : 'ticket-type',
        eventId: waiver.eventId,
        ticketTypeId: waiver.ticketTypeId,
        versionHash: waiver.versionHash,
        signedStatus: signature ? 'signed' : 'unsigned',
        signedDate: signature ? formatInTimeZone(new Date(signature.signedAt), timeZone) : null,
        signedVersionHash: signature?.versionHash ?? null,
      };
    })
    .filter((entry) => !signedStatus || entry.signedStatus === signedStatus);
}

/**
 * The waivers a signing links: the requested ones (all required ones when none are
 * named) that are not signed yet; re-signing a signed waiver is a no-op. Naming a
 * waiver this ticket does not require is a 400 listing them.
 */
export function waiversToSign(
  required: readonly Waiver[],
  signatures: readonly WaiverSignature[],
  requestedIds?: readonly number[],
): Waiver[] {
  const byId = new Map(required.map((waiver) => [waiver.id, waiver]));
  if (requestedIds) {
    const unknown = [...new Set(requestedIds)].filter((id) => !byId.has(id));
    if (unknown.length) {
      throw new ValidationError(
        `Waiver${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not required for this ticket.`,
        unknown.map((id) => ({
          path: `body.waiverIds.${requestedIds.indexOf(id)}`,
          message: `Waiver ${id} is not required for this ticket.`,
        })),
      );
    }
  }
  const signed = new Set(signatures.map((signature) => signature.waiverId));
  const wanted = requestedIds ? [...new Set(requestedIds)].map((id) => byId.get(id)!) : [...required];
  return wanted.filter((waiver) => !signed.has(waiver.id)).sort(byScopeThenId);
}

// ---- The signature -------------------------------------------------------------------

export const MAX_SIGNATURE_TEXT = 200;
export const MAX_SIGNATURE_IMAGE_BYTES = 512 * 1024;
export const MAX_SIGNATURE_SVG_BYTES = 256 * 1024;
export const MAX_WAIVERS_PER_SIGNING = 100;
/**
 * The longest signature text a body can carry: a JSON body holds at most 1 MiB
 * (MAX_JSON_BYTES, shared/http/parse-body.ts), so the bound refuses nothing that arrives;
 * the signature's own limits (413 above them) are checked on its bytes (prepareSignature).
 */
export const MAX_SIGNATURE_CHARS = 1024 * 1024;

/** The `POST /tickets/{id}/sign-waivers` body (its OpenAPI description). */
export const SignWaiversBody = z.lazy(() =>
  z.strictObject({
    /** The waivers to sign; omitted: every unsigned waiver the ticket requires. */
    waiverIds: z.optional(
      z
        .array(z.int().check(z.positive(), z.maximum(Number.MAX_SAFE_INTEGER)))
        .check(
          z.minLength(1, 'name at least one waiver, or omit waiverIds to sign all unsigned ones'),
          z.maxLength(MAX_WAIVERS_PER_SIGNING),
        ),
    ),
    signature: z.discriminatedUnion('type', [
      z.strictObject({
        type: z.literal('text'),
        text: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_SIGNATURE_TEXT)),
      }),
      z.strictObject({
        type: z.literal('image'),
        mediaType: z.enum(['image/png', 'image/jpeg']),
        /** Base64, optionally as a data URL (`data:image/png;base64,...`, what canvas.toDataURL gives). */
        data: z.string().check(z.minLength(1), z.maxLength(MAX_SIGNATURE_CHARS)),
      }),
      z.strictObject({
        type: z.literal('svg'),
        svg: z.string().check(z.minLength(1), z.maxLength(MAX_SIGNATURE_CHARS)),
      }),
    ]),
    /** Who signed (the attendee, or a guardian); optional. */
    signerName: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  }),
);
export type SignWaiversBody = z.infer<typeof SignWaiversBody>;
export type SignatureInput = SignWaiversBody['signature'];

/** What goes into the bucket for one signing. */
export interface SignatureObject {
  type: SignatureType;
  bytes: Buffer;
  contentType: string;
  extension: string;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function imageSignature(input: Extract<SignatureInput, { type: 'image' }>): SignatureObject {
  const field = 'body.signature.data';
  const dataUrl = /^data:([\w.+-]+\/[\w.+-]+);base64,/i.exec(input.data);
  const base64 = (dataUrl ? input.data.slice(dataUrl[0].length) : input.data).replace(/\s+/g, '');
  if (!BASE64.test(base64) || base64.length === 0) {
    throw new ValidationError('The signature image must be base64 (or a base64 data URL).', [
      { path: field, message: 'Not base64.' },
    ]);
  }
  if ((base64.length / 4) * 3 > MAX_SIGNATURE_IMAGE_BYTES + 2) {
    throw new TooLarge(`A signature image may have at most ${MAX_SIGNATURE_IMAGE_BYTES} bytes.`);
  }
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_SIGNATURE_IMAGE_BYTES)
    throw new TooLarge(`A signature image may have at most ${MAX_SIGNATURE_IMAGE_BYTES} bytes.`);
  const sniffed = sniffImageType(bytes);
  if (!sniffed || sniffed.mediaType !== input.mediaType) {
    throw new ValidationError(`The signature image's bytes are not ${input.mediaType}.`, [
      {
        path: field,
        message: sniffed
          ? `The bytes are ${sniffed.mediaType}, not ${input.mediaType}.`
          : 'The bytes are not a PNG or JPEG image.',
      },
    ]);
  }
  return { type: 'image', bytes, contentType: sniffed.mediaType, extension: sniffed.extension };
}

function svgSignature(svg: string): SignatureObject {
  if (Buffer.byteLength(svg) > MAX_SIGNATURE_SVG_BYTES)
    throw new TooLarge(`A signature SVG may have at most ${MAX_SIGNATURE_SVG_BYTES} bytes.`);
  try {
    return { type: 'svg', bytes: Buffer.from(sanitiseSvg(svg).svg), contentType: 'image/svg+xml', extension: 'svg' };
  } catch (error) {
    if (!(error instanceof UnsafeSvg)) throw error;
    throw new ValidationError(`The signature SVG cannot be made safe: ${error.message}`, [
      { path: 'body.signature.svg', message: error.message },
    ]);
  }
}

/**
 * Checks and normalises a signature before anything is stored: 400 for what is not
 * what it claims (image bytes by magic number, SVG that cannot be made safe), 413
 * above the size limits. SVG is stored sanitised, never as sent.
 */
export function prepareSignature(input: SignatureInput): SignatureObject {
  switch (input.type) {
    case 'text':
      return {
        type: 'text',
        bytes: Buffer.from(input.text),
        contentType: 'text/plain; charset=utf-8',
        extension: 'txt',
      };
    case 'image':
      return imageSignature(input);
    case 'svg':
      return svgSignature(input.svg);
  }
}
