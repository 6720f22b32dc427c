import { MIMEType } from 'node:util';
import httpMultipartBodyParser from '@middy/http-multipart-body-parser';
import * as z from '../schema.ts';
import { TooLarge, UnsupportedMediaType, ValidationError } from '../errors.ts';
import { header, type Middleware } from './request.ts';

/**
 * `multipart/form-data` (RFC 7578), parsed by the card's `@middy/http-multipart-body-parser`
 * (busboy) within the route's limits. Around it, what the project guarantees and the library
 * does not: every refusal a 4xx problem (the library answers 415 for everything, and for some
 * bodies throws outside its promise or never settles), exact limits, text fields that are
 * UTF-8, and one file per field. Each field becomes a string, each file part (a part with a
 * `filename`) an `UploadedFile`; the route's zod schema then validates the result like a JSON
 * body, so a missing or unknown field is the usual 400. Only the photo upload imports this
 * module, so only its bundle carries the parser.
 */
export interface UploadedFile {
  kind: 'file';
  /** As the client named it (busboy keeps its last path segment); informational only. */
  filename: string;
  /** As the client declared it; never trusted (sniff the bytes). */
  declaredType: string | undefined;
  data: Buffer;
}

export type FormFields = Record<string, string | UploadedFile>;

export interface MultipartLimits {
  /** Largest file part; beyond it, 413. */
  maxFileBytes: number;
  /** Largest text field; beyond it, 413. Default 16 KiB. */
  maxFieldBytes?: number;
  /** Most parts in one form; beyond it, 400. Default 10. */
  maxParts?: number;
}

/** A part's header block is read this far: busboy drops the rest (a name beyond it is lost, so the route's schema refuses the form). */
export const HEADER_LIMIT = 8 * 1024;
/** The request's Content-Type at most this long; beyond it, 400 before it is parsed. */
export const CONTENT_TYPE_LIMIT = 1024;
/** Room for part headers, boundaries and small fields on top of the file. */
const OVERHEAD_BYTES = 64 * 1024;
/** The boundaries the library takes (its Content-Type pattern): RFC 2046 allows more, which it answers 415. */
const LIBRARY_BOUNDARY = /^[A-Za-z0-9-]{1,70}$/;
/** RFC 2046: 1-70 characters from a restricted set, not ending in a space. */
const RFC_BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

export const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === 'object' &&
  value !== null &&
  (value as UploadedFile).kind === 'file' &&
  Buffer.isBuffer((value as UploadedFile).data);

/** A form field that must be a file part: `z.strictObject({ file: FilePart })`. */
export const FilePart = z.custom<UploadedFile>(
  isUploadedFile,
  'must be a file part (a form field sent with a filename)',
);

const malformed = (detail: string) => new ValidationError(`The multipart body is malformed: ${detail}`);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** What the library makes of a part: a field's text, or a file part's bytes (an array when a name comes twice). */
interface Attachment {
  filename?: string;
  mimetype?: string;
  truncated?: boolean;
  content: Buffer;
}
type LibraryValue = string | Attachment | (string | Attachment)[];

/**
 * The boundary of a `multipart/form-data` Content-Type (WHATWG MIME parsing: any case, quoted or
 * not, other parameters in any order). 415 for another type, 400 without a valid boundary.
 */
export function multipartBoundary(contentType: string | undefined): string {
  if (contentType && contentType.length > CONTENT_TYPE_LIMIT) {
    throw new ValidationError(`The Content-Type header is longer than ${CONTENT_TYPE_LIMIT} characters.`);
  }
  let type: MIMEType | undefined;
  try {
    type = new MIMEType(contentType ?? '');
  } catch {
    type = undefined;
  }
  if (type?.essence !== 'multipart/form-data') throw new UnsupportedMediaType('Send the body as multipart/form-data.');
  const boundary = type.params.get('boundary');
  if (!boundary || !RFC_BOUNDARY.test(boundary)) {
    throw new ValidationError('The multipart/form-data Content-Type needs a valid boundary parameter.');
  }
  if (!LIBRARY_BOUNDARY.test(boundary)) {
    throw new UnsupportedMediaType(
      'The multipart/form-data boundary may use only letters, digits and "-" (as browsers and common clients send it).',
    );
  }
  return boundary;
}

/** A field's text: UTF-8 or a 400 (busboy decodes with replacement, so U+FFFD is what bad bytes became). */
function fieldText(name: string, value: string | Buffer, maxFieldBytes: number): string {
  const bytes = typeof value === 'string' ? Buffer.byteLength(value) : value.length;
  if (bytes > maxFieldBytes) throw new TooLarge(`The form field "${name}" is longer than ${maxFieldBytes} bytes.`);
  let text: string | undefined;
  try {
    text = typeof value === 'string' ? value : utf8.decode(value);
  } catch {
    text = undefined;
  }
  if (text === undefined || text.includes('\uFFFD')) throw malformed(`The form field "${name}" is not valid UTF-8.`);
  return text;
}

/** The library's result as the route's fields, within the limits it could not enforce exactly. */
function formFields(parsed: Record<string, LibraryValue>, limits: Required<MultipartLimits>): FormFields {
  // Own properties only: a part named `__proto__` the library assigned to the prototype, and it is dropped here.
  const entries = Object.entries(parsed);
  const parts = entries.reduce((sum, [, value]) => sum + (Array.isArray(value) ? value.length : 1), 0);
  if (parts > limits.maxParts) throw new ValidationError(`A form may have at most ${limits.maxParts} parts.`);
  const fields: FormFields = {};
  for (const [name, value] of entries) {
    if (Array.isArray(value)) throw new ValidationError(`The form field "${name}" is sent more than once.`);
    if (typeof value === 'string' || value.filename === undefined) {
      fields[name] = fieldText(name, typeof value === 'string' ? value : value.content, limits.maxFieldBytes);
      continue;
    }
    // A browser sends an empty, nameless file part for a file input left empty.
    if (value.filename === '' && value.content.length === 0) continue;
    if (value.truncated) {
      throw new TooLarge(
        `The file "${name}" has more than ${limits.maxFileBytes} bytes; at most ${limits.maxFileBytes} are allowed.`,
      );
    }
    fields[name] = { kind: 'file', filename: value.filename, declaredType: value.mimetype, data: value.content };
  }
  return fields;
}

const STALLED = Symbol('stalled');
/**
 * The library's promise, or STALLED when it will never settle: for a part whose headers never
 * end, busboy waits for a stream nobody reads. Parsing a body in memory runs on promises and
 * `process.nextTick` only, all of which run before the next turn of the event loop.
 */
const unlessStalled = <T>(work: Promise<T>): Promise<T | typeof STALLED> =>
  Promise.race([work, new Promise<typeof STALLED>((resolve) => setImmediate(resolve, STALLED))]);

/** A route's multipart/form-data body: the limits and the middleware that parses it, handed to `route()`. */
export interface MultipartForm {
  limits: MultipartLimits;
  /** Sets `event.body` to the form's fields; 415 when the body is not multipart/form-data. */
  parser: Middleware;
}

/**
 * The form a route takes (`route(key, { multipart: multipartForm({...}) })`). The route
 * imports the parser itself, so the functions that take JSON do not bundle it.
 */
export function multipartForm(limits: MultipartLimits): MultipartForm {
  const exact = { maxFieldBytes: 16 * 1024, maxParts: 10, ...limits };
  // Typed without `isPartAFile` and `headerSize`, busboy options the library hands on as they are.
  const library = httpMultipartBodyParser({
    busboy: {
      // busboy drops what is over a count or field limit without a word, and middy does not pass on its limit
      // events: one over each limit, so that a form over it is told apart from one at it (formFields refuses it).
      // A file over its limit is marked `truncated`, so the file size is exact.
      limits: {
        fileSize: exact.maxFileBytes,
        fieldSize: exact.maxFieldBytes + 1,
        parts: exact.maxParts + 1,
        fields: exact.maxParts + 1,
        headerSize: HEADER_LIMIT,
      },
      // A file part is one with a filename (RFC 7578), whatever its type. Nameless parts and names ending in `]`
      // are read as files too: the library's field handler throws on them (`a` then `a[]`, `constructor[]`), and
      // for the form's last part it throws outside its promise, which would end the process. formFields turns
      // them back into text.
      isPartAFile: (name: string | undefined, _type: string, filename: string | undefined) =>
        filename !== undefined || name === undefined || name.endsWith(']'),
    },
  } as Parameters<typeof httpMultipartBodyParser>[0]);
  const parser: Middleware = {
    before: async (request) => {
      const { event } = request;
      const boundary = multipartBoundary(header(event, 'content-type'));
      const raw = typeof event.body === 'string' ? event.body : '';
      // Binary bodies arrive base64-encoded from API Gateway.
      const bytes = Buffer.from(raw, event.isBase64Encoded ? 'base64' : 'utf8');
      if (bytes.length > exact.maxFileBytes + OVERHEAD_BYTES) {
        throw new TooLarge(`The upload is larger than the ${exact.maxFileBytes} bytes a file may have.`);
      }
      // Without its close delimiter, busboy errors the open file part's stream, which the library does not
      // listen to: an exception outside its promise. Such a body is malformed anyway.
      const close = `--${boundary}--`;
      if (!bytes.subarray(0, close.length).equals(Buffer.from(close)) && !bytes.includes(`\r\n${close}`)) {
        throw malformed('the body ends before the closing boundary.');
      }
      // The library reads the header it checks: it gets the boundary as it accepts it, whatever the client's spelling.
      const view = {
        ...request,
        event: { ...event, headers: { ...event.headers, 'content-type': `multipart/form-data; boundary=${boundary}` } },
      };
      let read = false;
      try {
        read = (await unlessStalled(Promise.resolve(library.before?.(view as never)))) !== STALLED;
      } catch {
        // The library's 415 for anything it cannot read: ours is a 400, as for malformed JSON.
      }
      if (!read) throw malformed('it could not be read as multipart/form-data.');
      event.body = formFields(view.event.body as Record<string, LibraryValue>, exact);
    },
  };
  return { limits, parser };
}
