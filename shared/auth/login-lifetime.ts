/**
 * How long a sign-in through the identity provider may take: the signed login state's,
 * the login cookie's and the PKCE verifier's lifetime. Its own module so that the cookie
 * helpers every function loads do not pull in the state's signing (and the Secrets
 * Manager client behind it).
 */
export const LOGIN_TTL_SECONDS = 10 * 60;
