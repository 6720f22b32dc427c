import * as z from '../schema.ts';
import { TooLarge, UnsupportedMediaType, ValidationError } from '../errors.ts';

/**
 * `multipart/form-data` (RFC 7578) for Lambda: API Gateway hands over the whole body at
 * once (base64), so it is parsed from one Buffer, within limits, with no streaming
 * parser and no dependency. Each field becomes a string, each file part (a part with a
 * `filename`) an `UploadedFile`; the route's zod schema then validates the result like
 * a JSON body, so a missing or unknown field is the usual 400.
 */
export interface UploadedFile {
  kind: 'file';
  /** As the client named it; informational only. */
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

/** A part's header block at most this long; beyond it, 400 (looked for only this far). */
export const HEADER_LIMIT = 8 * 1024;
/** The request's Content-Type at most this long; beyond it, 400 before it is parsed. */
export const CONTENT_TYPE_LIMIT = 1024;
const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Header and field text must be UTF-8: a byte sequence that is not is a 400, never stored as U+FFFD. */
function text(bytes: Buffer, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw bad(`${what} is not valid UTF-8.`);
  }
}
/** Room for part headers, boundaries and small fields on top of the file. */
const OVERHEAD_BYTES = 64 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

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

const bad = (detail: string) => new ValidationError(`The multipart body is malformed: ${detail}`);

/** RFC 7230 token characters (parameter names). */
const TOKEN_CHARS = new Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
const isSpace = (char: string | undefined) => char === ' ' || char === '\t';

/**
 * `name=value; name2="quoted \" value"` → lower-case names to values. One pass over the
 * text, every character looked at a bounded number of times: no regular expression that
 * backtracks over whitespace and no re-slicing of the rest (which made long runs of
 * spaces quadratic). `work`, when given, counts the characters stepped over (tests).
 */
export function parseParameters(text: string, work?: { steps: number }): Map<string, string> {
  const parameters = new Map<string, string>();
  const n = text.length;
  let at = 0;
  const advance = () => {
    at++;
    if (work) work.steps++;
  };
  while (at < n) {
    while (at < n && (isSpace(text[at]) || text[at] === ';')) advance();
    const nameStart = at;
    while (at < n && TOKEN_CHARS.has(text[at]!)) advance();
    const name = text.slice(nameStart, at);
    while (at < n && isSpace(text[at])) advance();
    if (!name || text[at] !== '=') {
      // Skip an unparseable piece up to the next ';'.
      while (at < n && text[at] !== ';') advance();
      continue;
    }
    advance();
    while (at < n && isSpace(text[at])) advance();
    let value = '';
    if (text[at] === '"') {
      advance();
      let from = at;
      while (at < n && text[at] !== '"') {
        if (text[at] === '\\' && at + 1 < n) {
          value += text.slice(from, at);
          advance();
          from = at;
        }
        advance();
      }
      value += text.slice(from, at);
      advance();
    } else {
      const valueStart = at;
      while (at < n && text[at] !== ';') advance();
      value = text.slice(valueStart, at).trim();
    }
    parameters.set(name.toLowerCase(), value);
  }
  return parameters;
}

/**
 * The boundary of a `multipart/form-data` Content-Type; undefined for any other type.
 * A multipart type with a missing or invalid boundary is a 400.
 */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (contentType && contentType.length > CONTENT_TYPE_LIMIT) {
    throw new ValidationError(`The Content-Type header is longer than ${CONTENT_TYPE_LIMIT} characters.`);
  }
  const [type = '', ...rest] = (contentType ?? '').split(';');
  if (type.trim().toLowerCase() !== 'multipart/form-data') return undefined;
  const boundary = parseParameters(rest.join(';')).get('boundary');
  // RFC 2046: 1-70 characters from a restricted set, not ending in a space.
  if (!boundary || !/^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/.test(boundary)) {
    throw new ValidationError('The multipart/form-data Content-Type needs a valid boundary parameter.');
  }
  return boundary;
}

function partHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw bad('a part header line has no name.');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** RFC 5987 `filename*=UTF-8''caf%C3%A9.jpg`. */
function extendedValue(value: string): string | undefined {
  const match = /^utf-8'[^']*'(.*)$/i.exec(value);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

/** Parses a whole multipart/form-data body; throws 400 (malformed) or 413 (too large). */
export function parseMultipart(body: Buffer, boundary: string, limits: MultipartLimits): FormFields {
  const maxFieldBytes = limits.maxFieldBytes ?? 16 * 1024;
  const maxParts = limits.maxParts ?? 10;
  if (body.length > limits.maxFileBytes + OVERHEAD_BYTES) {
    throw new TooLarge(`The upload is larger than the ${limits.maxFileBytes} bytes a file may have.`);
  }
  const delimiter = Buffer.from(`--${boundary}`);
  // The first delimiter opens the body or follows a preamble's CRLF; later ones follow CRLF.
  let at = body.subarray(0, delimiter.length).equals(delimiter) ? 0 : body.indexOf(Buffer.concat([CRLF, delimiter]));
  if (at < 0) throw bad('the boundary of the Content-Type does not occur in the body.');
  if (at > 0) at += CRLF.length;
  at += delimiter.length;

  const fields: FormFields = Object.create(null);
  const nextDelimiter = Buffer.concat([CRLF, delimiter]);
  let parts = 0;
  for (;;) {
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return { ...fields }; // "--": the close delimiter
    while (body[at] === 0x20 || body[at] === 0x09) at++; // transport padding
    if (!body.subarray(at, at + 2).equals(CRLF)) throw bad('a boundary line is not followed by CRLF.');
    at += 2;
    if (++parts > maxParts) throw new ValidationError(`A form may have at most ${maxParts} parts.`);

    // The delimiter cannot occur inside a part, so the part ends at the next one.
    const contentEnd = body.indexOf(nextDelimiter, at);
    if (contentEnd < 0) throw bad('the body ends before the closing boundary.');
    // A part without headers starts with CRLF straight away.
    const noHeaders = body.subarray(at, at + 2).equals(CRLF);
    // Looked for within the limit only: a long header costs no more than the limit.
    const found = noHeaders
      ? 0
      : body.subarray(at, Math.min(contentEnd, at + HEADER_LIMIT + HEADER_END.length)).indexOf(HEADER_END);
    if (found < 0) throw bad('a part has no blank line ending its headers (within 8 KiB).');
    const headerEnd = at + found;
    const headers = noHeaders
      ? new Map<string, string>()
      : partHeaders(text(body.subarray(at, headerEnd), 'a part header'));
    const contentStart = noHeaders ? at + 2 : headerEnd + HEADER_END.length;
    if (contentStart > contentEnd) throw bad('a part has no blank line ending its headers.');
    at = contentEnd + nextDelimiter.length;

    const [disposition = '', ...rest] = (headers.get('content-disposition') ?? '').split(';');
    if (disposition.trim().toLowerCase() !== 'form-data')
      throw bad('every part needs "Content-Disposition: form-data".');
    const parameters = parseParameters(rest.join(';'));
    const name = parameters.get('name');
    if (!name) throw bad('a part has no field name.');
    if (name in fields) throw new ValidationError(`The form field "${name}" is sent more than once.`);

    const content = body.subarray(contentStart, contentEnd);
    const filename = extendedValue(parameters.get('filename*') ?? '') ?? parameters.get('filename');
    if (filename !== undefined) {
      // A browser sends an empty, nameless file part for a file input left empty.
      if (filename === '' && content.length === 0) continue;
      if (content.length > limits.maxFileBytes) {
        throw new TooLarge(
          `The file "${name}" has ${content.length} bytes; at most ${limits.maxFileBytes} are allowed.`,
        );
      }
      fields[name] = { kind: 'file', filename, declaredType: headers.get('content-type'), data: Buffer.from(content) };
    } else {
      if (content.length > maxFieldBytes)
        throw new TooLarge(`The form field "${name}" is longer than ${maxFieldBytes} bytes.`);
      fields[name] = text(content, `The form field "${name}"`);
    }
  }
}

/** A route's multipart/form-data body: the limits and the parser, handed to `route()`. */
export interface MultipartForm {
  limits: MultipartLimits;
  /** The form's fields; 415 when the content type is not multipart/form-data with a boundary. */
  parse(contentType: string | undefined, body: Buffer): FormFields;
}

/**
 * The form a route takes (`route(key, { multipart: multipartForm({...}) })`). The route
 * imports the parser itself, so the functions that take JSON do not bundle it.
 */
export const multipartForm = (limits: MultipartLimits): MultipartForm => ({
  limits,
  parse: (contentType, body) => {
    const boundary = multipartBoundary(contentType);
    if (!boundary) throw new UnsupportedMediaType('Send the body as multipart/form-data.');
    return parseMultipart(body, boundary, limits);
  },
});
