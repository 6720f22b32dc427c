import { type Entries, md, SIGN_IN_MODE, table } from './common.ts';

/** The `auth` tag: what every administrator client needs to know about tokens, cookies and sessions. */
export const AUTH_TAG = md(
  'Sign-in and sessions of administrators. `SITE_AUTH_METHOD` picks the mode: identity provider (`idp`: `POST /auth/login`, the callback, `POST /auth/logout`, `POST /auth/change-password`) or legacy (`/auth/legacy/*`, against the service\'s own password records). Each mode\'s routes answer 403 in the other (`POST /auth/login` and `/auth/vendor/login` with `error: "vendor_user_restricted"`, as the spec says); `/auth/me`, `/auth/me2` and `/auth/refresh` work in both.',
  "**Tokens.** The service's own ES256 JWTs with a `kid` header (`iss`, `aud`, `exp`, `iat`, `sub`, `auth_time` required), valid 1 hour. Administrators get audience `ticketing-admin`, customers `ticketing-customer`: neither opens the other's routes. Permissions (`shipping:read`, `shipping:write`, `tickets:read`, `tickets:write`, `checkin:scan`, `checkin:undo`, `customers:manage`, `webhooks:manage`) are copied from the administrator record into the token at sign-in, and so is an event scope (the `events` claim, answered as `eventScope`). `expiresAt` in the login and refresh answers is the token's `exp` in epoch seconds.",
  "**What a browser client sends.** Either the `__Host-ticketing-auth` cookie (`HttpOnly; Secure; SameSite=Lax; Path=/`, lifetime = the token's; set by the logins, the callback and refresh: call them with `credentials: 'include'`) or `Authorization: Bearer <jwt>` (bearer requests need nothing else). A cookie request that changes state (POST, PUT, PATCH, DELETE) must come from one of its audience's origins (`Origin`: the admin front end for admin routes, the portal for customer routes) and carry `X-Requested-With` (any value), else 403 `error: \"csrf_rejected\"`. The public routes that change state take no cookie, but a request that carries an `Origin` must name one of the two front ends (no login CSRF); clients that send no `Origin` (scripts) are answered as usual.",
  '**Sessions.** Refresh before the hour is up (`POST /auth/refresh`, no body; a bearer client takes the new `token` from the answer). 12 hours after the sign-in a refresh answers 401: sign in again. An expired token cannot be refreshed. Logout (either route) signs out everywhere; a password change and a reset end every session too. The container that ended a session refuses its tokens at once, others within 30 seconds; a refresh of an ended session is always refused.',
  "**Throttled logins** (`POST /auth/legacy/login`, `POST /auth/legacy/change-password`, and the customers' `PUT /my-account`). Each attempt is reserved before the password is checked, so parallel guesses cannot outrun a limit. The account is the lower-cased login (known or unknown alike), the client its network (an IPv4 address, an IPv6 /64):",
  table(
    ['count', 'limit in 15 minutes', 'when reached'],
    [
      [
        'account × client network',
        '5 failures',
        'that network is locked out of that account: 1 minute, doubling with each further lock-out up to 1 hour (forgotten 24 hours after the last)',
      ],
      ['client network, across accounts', '20 failures', 'the network is locked out of every account, same lengths'],
      [
        'account, across networks',
        '50 failures',
        'the account is under attack: each network gets 1 attempt per window instead of 5',
      ],
    ],
  ),
  "While locked out a login answers 429 with `Retry-After` before looking at the password (the right one too): wait, do not retry in a loop. A stranger cannot lock the owner out: a network that has not failed on the account always has its attempt. A right password forgets that network's failures on the account. The identity-provider logins take no password here: Cognito's hosted UI throttles those.",
);

export const AUTH = {
  'POST /auth/login': {
    summary: 'Start an identity-provider sign-in',
    description: md(
      `Answers \`{count, data: {auth_url}}\`: send the browser there (\`location.assign(auth_url)\`). \`redirect_uri\` must be a page on one of the admin origins (\`ADMIN_ORIGINS\`); the identity provider comes back to \`<its origin>/api/v2/auth/callback\`. ${SIGN_IN_MODE} (\`error=vendor_user_restricted\`).`,
      "Authorization code with PKCE S256 against Cognito's hosted UI; the verifier stays on the server (single use, 10 minutes). The answer also sets `__Host-ticketing-login` (`HttpOnly; Secure; SameSite=Lax`, 10 minutes), whose hash is in the signed `state`: the login completes only in the browser that started it, so keep `credentials` on this call.",
    ),
  },
  'POST /auth/vendor/login': {
    summary: 'Start a vendor sign-in (deprecated)',
    description: `As \`POST /auth/login\`, with the vendor channel flagged in the state; a non-vendor who signs in through it lands on the admin UI with \`?error_code=not_vendor_user\` after the provider's logout. ${SIGN_IN_MODE}`,
  },
  'GET /auth/callback': {
    summary: 'Finish an identity-provider sign-in',
    description: md(
      "Where the identity provider sends the browser back. Always a 302: to the login's `redirect_uri` with the auth cookie set, or with `?error_code=` one of `invalid_state`, `login_csrf` (this browser does not hold the login's cookie: started elsewhere, or cookies blocked), `login_expired` (already used, or older than 10 minutes), `access_denied`, `invalid_request`, `code_rejected`, `invalid_id_token`, `provider_unavailable` (the provider's token endpoint or keys did not answer: try again), `unknown_user`, `idp_disabled`; when the state cannot be trusted, to the admin UI.",
      "The id token is verified against the pool's keys (issuer, audience, expiry, `token_use: id`, nonce). The administrator is found by the token's **verified email** at the first sign-in, which pins the Cognito `sub` on the record; afterwards the `sub` must match, so a Cognito user re-created with the same email cannot take the record over. Permissions live on the administrator record, never in Cognito groups.",
    ),
    parameters: {
      code: 'The authorization code from the identity provider.',
      state: 'The signed login state from `POST /auth/login`.',
      error: "The identity provider's error code, when it refused the sign-in.",
    },
  },
  'POST /auth/logout': {
    summary: 'Sign out (identity provider)',
    description:
      "Ends every session of a valid token's account (sign-out everywhere), clears the auth cookie and answers `{count, data: {success, logout_url}}`: send the browser to `logout_url`. An expired, revoked or missing token is answered the same (nothing to end), so a browser whose session ran out can still leave a shared computer; only a foreign `Origin` is refused.",
    parameters: {
      return_to:
        'Where the identity provider sends the browser after its logout: one of the admin origins (with or without a trailing `/`) or the admin UI URL, else 400 (no open redirect).',
    },
  },
  'POST /auth/change-password': {
    summary: 'Mail a password-reset code (identity provider)',
    description:
      "Asks Cognito to mail the caller's linked user a reset code (`{success, message}`). At most 3 mails per account in 24 hours, and within the client's 10 reset mails an hour (429 with `Retry-After`). Records with their own password are refused.",
  },
  'GET /auth/me': {
    summary: 'The signed-in administrator',
    description: 'Profile, permissions and event scope of the caller.',
  },
  'GET /auth/me2': { summary: 'The signed-in administrator (deprecated)', description: 'Identical to `GET /auth/me`.' },
  'POST /auth/refresh': {
    summary: 'Refresh the token',
    description:
      'A new token (in the answer as `token`, and as the auth cookie) for a still-valid session, with the permissions and event scope re-read from the record and `auth_time` kept. 12 hours after the sign-in, or for an ended session, 401: sign in again.',
  },
  'POST /auth/legacy/login': {
    summary: 'Sign in with login and password (legacy)',
    description: md(
      `Checks the service's own password records and answers \`{count, data: {success, jwt, expiresAt, user}}\` plus the auth cookie. Unknown login and wrong password give the same 401 after the same work; a vendor user gets 403 \`error: "vendor_login_required"\`. Throttled (see the tag: 429 with \`Retry-After\`). ${SIGN_IN_MODE}`,
      'Passwords are scrypt hashes; bcrypt hashes imported from the old system (`$2a$`, `$2b$`, `$2y$`) verify and are replaced by scrypt at the next successful sign-in.',
    ),
    errors: [401],
  },
  'POST /auth/legacy/logout': {
    summary: 'Sign out (legacy)',
    description:
      "Ends every session of a valid token's account (sign-out everywhere) and clears the auth cookie. An expired, revoked or missing token is answered the same; only a foreign `Origin` is refused.",
  },
  'POST /auth/legacy/change-password': {
    summary: 'Change the password (legacy)',
    description:
      "Checks the old password (a wrong one counts against the login's throttle: a stolen token is no free oracle), sets the new one (12 to 1024 characters, different from the old) and ends every session, the caller's included: sign in again with the new password. Outstanding reset tokens are voided.",
    conflicts: ['password_changed'],
  },
  'POST /auth/legacy/forgot-password': {
    summary: 'Mail a password-reset token (legacy)',
    description: md(
      'Byte-identical answers whether or not the account exists, after the same 600 ms floor. At most 3 requests per address (lower-cased) in any 24 hours, counted before the account is looked up, and 10 an hour per client; beyond, 429 with `Retry-After`. The limits bound sending only: a new request never voids links already mailed. A mail outage is a 503 (its token is deleted again).',
      'The mail links to `<admin UI>/reset-password#token=…`: the token is in the fragment, which browsers never send. The page should read it, drop it from the address bar (`history.replaceState`) and post it to `POST /auth/legacy/reset-password`.',
    ),
  },
  'POST /auth/legacy/reset-password': {
    summary: 'Reset the password with a mailed token (legacy)',
    description:
      "The token is single-use, valid 24 hours, and bound to the administrator who asked for it; a refused token is a 400 naming `body.token`. One transaction: the token is spent, the password changes, the administrator's other reset tokens are deleted and every session ends; of two concurrent resets exactly one succeeds.",
    conflicts: ['password_changed'],
  },
} satisfies Entries;
