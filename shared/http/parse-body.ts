import httpJsonBodyParser from '@middy/http-json-body-parser';
import { TooLarge, UnsupportedMediaType, ValidationError } from '../errors.ts';
import type { MultipartForm } from './multipart-form.ts';
import { header, type Middleware } from './request.ts';

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;
/** Well under Lambda's 6 MB payload; no JSON body of this API comes near it. */
export const MAX_JSON_BYTES = 1024 * 1024;

/**
 * The card's JSON parser. It sees only a body that passed the checks below (media type, size,
 * UTF-8), so its own media-type check is off (ours takes any case and names what to send), and
 * its 415 for malformed JSON becomes our 400. (`disableContentTypeCheck` is a documented option
 * its type declaration leaves out.)
 */
const jsonParser = httpJsonBodyParser({ disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0]);

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** A surrogate without its partner (String#isWellFormed, before the project's ES lib has it); fixed-width lookarounds: linear. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (text: string) => !LONE_SURROGATE.test(text);
const notUtf8 = () => new ValidationError('The request body is not valid UTF-8.');

/**
 * The body as text, refusing what is not UTF-8: a binary (base64) body is decoded
 * fatally; a text body was decoded by the gateway, which replaces bytes that are not
 * UTF-8 with U+FFFD, so that character is refused too (no client needs to send it).
 */
function bodyText(raw: string | undefined, base64: boolean | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let text = raw;
  if (base64) {
    try {
      text = utf8.decode(Buffer.from(raw, 'base64'));
    } catch {
      throw notUtf8();
    }
  }
  if (text.includes('\uFFFD') || !wellFormed(text)) throw notUtf8();
  return text;
}

/** JSON escapes can still spell a lone surrogate (`"\ud800"`), which no UTF-8 can carry: refused like bad bytes. */
function assertWellFormed(value: unknown): void {
  // An explicit stack, not recursion: a 1 MB body can nest far deeper than the call stack.
  const pending: unknown[] = [value];
  while (pending.length) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (!wellFormed(next)) throw notUtf8();
    } else if (next !== null && typeof next === 'object') {
      for (const [key, item] of Object.entries(next)) {
        if (!wellFormed(key)) throw notUtf8();
        pending.push(item);
      }
    }
  }
}

/** `{}` (any whitespace), which generic clients send on a POST without a body; anything longer is not looked at. */
function isEmptyObject(text: string): boolean {
  if (text.length > 64) return false;
  const trimmed = text.trim();
  return trimmed.startsWith('{') && trimmed.endsWith('}') && trimmed.slice(1, -1).trim() === '';
}

/**
 * `json`: the body must be JSON (415 for another content type, 400 when malformed or
 * missing). `raw`: the same checks, and the JSON's text is left in `event.body`, unparsed (the Stripe
 * webhook verifies its signature over those bytes before reading them). `none`: the route takes no body: none, an empty one or `{}` (with any
 * content type); anything else is a 400 rather than being silently ignored. `{ multipart }`: the body must be multipart/form-data (415
 * otherwise), parsed within the route's limits into its fields by the parser the route
 * brought (`multipartForm` in multipart-form.ts, so JSON routes do not bundle it).
 */
export function parseBody(kind: 'json' | 'raw' | 'none' | { multipart: MultipartForm }): Middleware {
  if (typeof kind === 'object') return kind.multipart.parser;
  return {
    before: async (request) => {
      const { event } = request;
      const raw = typeof event.body === 'string' ? event.body : undefined;
      if (kind === 'none') {
        const text = raw !== undefined && event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
        if (text && text.trim() !== '' && !isEmptyObject(text))
          throw new ValidationError('This route takes no request body (an empty one or `{}` is fine).');
        event.body = undefined;
        return;
      }
      if (!JSON_TYPE.test(header(event, 'content-type') ?? '')) {
        throw new UnsupportedMediaType('Send the body as application/json.');
      }
      // The size first: nothing larger is decoded or scanned.
      if (raw !== undefined && Buffer.byteLength(raw, event.isBase64Encoded ? 'base64' : 'utf8') > MAX_JSON_BYTES) {
        throw new TooLarge(`JSON bodies are limited to ${MAX_JSON_BYTES} bytes.`);
      }
      const text = bodyText(raw, event.isBase64Encoded);
      if (text === undefined || text.trim() === '') throw new ValidationError('A JSON request body is required.');
      // The library gets the text checked above (it would decode base64 again, replacing bad bytes).
      event.body = text;
      event.isBase64Encoded = false;
      if (kind === 'raw') return;
      try {
        await jsonParser.before?.(request as never);
      } catch {
        throw new ValidationError('The request body is not valid JSON.');
      }
      assertWellFormed(event.body);
    },
  };
}
