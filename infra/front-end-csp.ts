/**
 * The front ends' Content-Security-Policies, a module of their own with no import: CloudFront's response-headers
 * policies send them (infra/front-ends.ts), and `npm start`'s portal server sends the portal's
 * (bin/local/front-ends.ts), so the browser test runs the page under it.
 */

/**
 * The front-end files' Content-Security-Policy, unless the SPA's own answer sets one.
 * Scripts and styles from the same origin only; the API is on the same origin too.
 */
export const FRONT_END_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
].join('; ');

/**
 * The portal's: the same, and Stripe.js, which the page loads to take the card (infra/pages/portal/pay.js): its
 * script, its frames (the card field, 3-D Secure) and its API, as Stripe's security guide lists them. The admin
 * page takes no payment and keeps FRONT_END_CSP.
 */
export const PORTAL_CSP = FRONT_END_CSP.replace(
  "connect-src 'self'",
  [
    "script-src 'self' https://js.stripe.com",
    'frame-src https://js.stripe.com https://hooks.stripe.com',
    "connect-src 'self' https://api.stripe.com",
  ].join('; '),
);
