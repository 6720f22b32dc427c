import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './openapi-types.ts';

/**
 * The typed API client for the admin SPA, the customer portal and scripts: a thin
 * openapi-fetch client over the types generated from the OpenAPI document
 * (openapi-types.ts, `npm run build:client`). Paths, parameters, bodies and answers are
 * checked at compile time. It imports nothing else from this project, so a front end
 * that imports it (`ticketing-api/client`) pulls in no server code.
 */
export type { components, operations, paths } from './openapi-types.ts';

export type TicketingClient = Client<paths>;

/** Where the API is: the document's paths (e.g. `/tickets`) are below this. */
export const API_BASE_PATH = '/api/v2';

export interface TicketingClientOptions {
  /**
   * The API's base URL, `/api/v2` included: `https://admin.example.org/api/v2`, or
   * `/api/v2` in a browser on a front end's own origin (the default).
   */
  baseUrl?: string;
  /**
   * Bearer sign-in (scripts, native apps): the token, or a function giving the current one
   * (called before every request, so a refreshed token is picked up).
   */
  token?: string | (() => string | undefined | Promise<string | undefined>);
  /**
   * Cookie sign-in (browsers on the admin or portal origin): sends the HttpOnly auth
   * cookie and `X-Requested-With`, which the API's CSRF check wants on every cookie request.
   */
  cookie?: boolean;
  /** Another fetch (tests, server-side rendering). */
  fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every request (e.g. `Accept-Language`). */
  headers?: Record<string, string>;
}

/** A client for one caller: either a bearer token or the browser's cookie (or neither, for the public routes). */
export function createTicketingClient(options: TicketingClientOptions = {}): TicketingClient {
  const { baseUrl = API_BASE_PATH, token, cookie = false, fetch, headers = {} } = options;
  const client = createClient<paths>({
    baseUrl,
    headers: cookie ? { ...headers, 'X-Requested-With': 'fetch' } : headers,
    // Bearer clients never send cookies: an ambient cookie must not decide who the caller is.
    credentials: cookie ? 'same-origin' : 'omit',
    ...(fetch ? { fetch } : {}),
  });
  if (token !== undefined) client.use(bearer(token));
  return client;
}

function bearer(token: NonNullable<TicketingClientOptions['token']>): Middleware {
  return {
    async onRequest({ request }) {
      const value = typeof token === 'function' ? await token() : token;
      if (value) request.headers.set('Authorization', `Bearer ${value}`);
      return request;
    },
  };
}
