import { TooLarge, UnsupportedMediaType, ValidationError } from '../errors.ts';
import { multipartBoundary, parseMultipart, type MultipartLimits } from './multipart.ts';
import { header, type Middleware } from './request.ts';

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;
/** Well under Lambda's 6 MB payload; no JSON body of this API comes near it. */
export const MAX_JSON_BYTES = 1024 * 1024;

/**
 * `json`: the body must be JSON (415 for another content type, 400 when malformed or
 * missing). `none`: the route takes no body, and sending one is a 400 rather than
 * being silently ignored. `{ multipart }`: the body must be multipart/form-data (415
 * otherwise), parsed within the limits into its fields (`multipart.ts`).
 */
export function parseBody(kind: 'json' | 'none' | { multipart: MultipartLimits }): Middleware {
  return {
    before: async ({ event }) => {
      const raw = typeof event.body === 'string' ? event.body : undefined;
      if (typeof kind === 'object') {
        const boundary = multipartBoundary(header(event, 'content-type'));
        if (!boundary) throw new UnsupportedMediaType('Send the body as multipart/form-data.');
        // Binary bodies arrive base64-encoded from API Gateway.
        const bytes = raw === undefined ? Buffer.alloc(0) : Buffer.from(raw, event.isBase64Encoded ? 'base64' : 'utf8');
        event.body = parseMultipart(bytes, boundary, kind.multipart);
        return;
      }
      const text = raw !== undefined && event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
      if (kind === 'none') {
        if (text && text.trim() !== '') throw new ValidationError('This route takes no request body.');
        event.body = undefined;
        return;
      }
      if (!JSON_TYPE.test(header(event, 'content-type') ?? '')) {
        throw new UnsupportedMediaType('Send the body as application/json.');
      }
      if (text === undefined || text.trim() === '') throw new ValidationError('A JSON request body is required.');
      if (Buffer.byteLength(text) > MAX_JSON_BYTES) throw new TooLarge(`JSON bodies are limited to ${MAX_JSON_BYTES} bytes.`);
      try {
        event.body = JSON.parse(text);
      } catch {
        throw new ValidationError('The request body is not valid JSON.');
      }
    },
  };
}
