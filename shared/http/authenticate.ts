import { assertSessionCurrent } from '../identity/use-cases/session-check.ts';
import { isStageWide, type Permission } from '../auth/permissions.ts';
import { verifyToken, type AdminPrincipal } from '../auth/tokens.ts';
import type { Access } from '../routes.ts';
import { AUTH_COOKIE, readCookie } from './cookies.ts';
import { isAllowedOrigin } from './cors.ts';
import { Forbidden, Unauthenticated } from '../errors.ts';
import { header, type Middleware, type RouteEvent } from './request.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Any value will do: a cross-site form cannot set a custom header without a CORS preflight. */
export const CSRF_HEADER = 'x-requested-with';

function bearerToken(event: RouteEvent): string | undefined {
  const value = header(event, 'authorization');
  if (!value) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  if (!match) throw new Unauthenticated('The Authorization header must use the Bearer scheme.');
  return match[1];
}

/**
 * A cookie rides along with any request the browser makes, so a state-changing request
 * authenticated by the cookie alone must come from one of our origins and carry the
 * custom header. Bearer requests are immune (a foreign page cannot read the token).
 */
function assertNotCrossSite(event: RouteEvent, audience: 'admin' | 'customer'): void {
  if (SAFE_METHODS.has(event.requestContext.http.method)) return;
  // Per audience: the portal's origin cannot drive the admin routes with an administrator's cookie, nor the reverse.
  if (!isAllowedOrigin(header(event, 'origin'), audience) || !header(event, CSRF_HEADER)) {
    throw new Forbidden(
      `Cookie-authenticated requests that change state must come from one of this route's front-end origins and carry the ${CSRF_HEADER} header.`,
      { error: 'csrf_rejected' },
    );
  }
}

/**
 * Public routes that change state (the password logins, forgot/reset password) take no
 * token, but a browser on a foreign page could still post to them and be handed our
 * session cookie (login CSRF: the victim signed into the attacker's account). A request
 * that names its origin must name one of our front ends; clients that send no Origin
 * (integrations, curl) are not browsers and pass.
 */
function assertPublicOrigin(event: RouteEvent): void {
  const origin = header(event, 'origin');
  if (SAFE_METHODS.has(event.requestContext.http.method) || origin === undefined || isAllowedOrigin(origin, 'public'))
    return;
  throw new Forbidden('Browser requests to this route must come from one of the front-end origins.', {
    error: 'csrf_rejected',
  });
}

/**
 * The logouts (`signOut` rows): a browser whose session ran out must still be able to
 * leave, so a missing, expired, revoked or invalid token is answered as signed out (the
 * handler clears the cookie and revokes nothing). A foreign Origin is still refused, and a
 * valid cookie session still needs the CSRF header, as every cookie-authenticated change.
 */
async function identifyIfSignedIn(event: RouteEvent, access: AdminAccess): Promise<void> {
  const origin = header(event, 'origin');
  if (origin !== undefined && !isAllowedOrigin(origin, 'admin')) {
    throw new Forbidden('Sign-out requests from a browser must come from one of the admin front-end origins.', {
      error: 'csrf_rejected',
    });
  }
  try {
    await identify(event, access);
  } catch (error) {
    if (!(error instanceof Unauthenticated)) throw error;
    event.principal = undefined;
  }
}

type AdminAccess = Extract<Access, { kind: 'admin' }>;

/** Authenticates the caller and checks the route's permission (from the route table). */
export function authenticate(access: Access): Middleware {
  return {
    before: async (request) => {
      const event = request.event;
      if (access.kind === 'public') return assertPublicOrigin(event);
      if (access.kind === 'admin' && access.signOut) return identifyIfSignedIn(event, access);
      return identify(event, access);
    },
  };
}

/** The token's caller, its session current and the row's permission held; sets `event.principal`. */
async function identify(event: RouteEvent, access: Exclude<Access, { kind: 'public' }>): Promise<void> {
  let token = bearerToken(event);
  if (!token) {
    token = readCookie(event.cookies, AUTH_COOKIE);
    if (!token) throw new Unauthenticated('Send a Bearer token or the auth cookie.');
    assertNotCrossSite(event, access.kind);
  }
  const principal = await verifyToken(token, access.kind);
  // After the signature: an ended session (logout everywhere, password change) is refused; cached, see session-check.ts.
  await assertSessionCurrent(principal);
  if (access.kind === 'admin' && access.permission) assertHolds(principal as AdminPrincipal, access.permission);
  event.principal = principal;
}

/** The row's permission on the token, and not a stage-wide one for an administrator limited to some events. */
function assertHolds(principal: AdminPrincipal, permission: Permission): void {
  if (!principal.permissions.includes(permission))
    throw new Forbidden(`This route needs the "${permission}" permission.`);
  if (principal.eventScope && isStageWide(permission))
    throw new Forbidden(
      `The "${permission}" permission is stage-wide (what it changes is offered at every event): an administrator limited to some events does not hold it.`,
    );
}
