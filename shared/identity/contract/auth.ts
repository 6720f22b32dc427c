import { AdministratorProfileResource, ExpiresAt, LegacySignIn } from '../domain/administrator.ts';
import * as z from '../../schema.ts';

/** The contract of the auth routes (`functions/auth/`): the answers the sign-in and session routes give. */

/**
 * The administrator as the API answers it, and the legacy sign-in's answer: their schemas live with the domain types
 * they define (the use case's result is the answer but its `success`).
 */
export { AdministratorProfileResource, LegacySignIn };

/** `{success, message}`: bare on the change-password routes, enveloped on the legacy logout and reset routes. */
export const SuccessMessage = z.lazy(() => z.strictObject({ success: z.literal(true), message: z.string() }));

/** `POST /auth/login`, `/auth/vendor/login`: where to send the browser. */
export const AuthUrl = z.lazy(() => z.strictObject({ auth_url: z.url() }));
/** `POST /auth/logout`: the provider's logout URL. */
export const LogoutUrl = z.lazy(() => z.strictObject({ success: z.literal(true), logout_url: z.url() }));
/** `POST /auth/refresh`: the new token, also set as the cookie (bearer clients take it from here). */
export const Refreshed = z.lazy(() =>
  z.strictObject({ refreshed: z.literal(true), token: z.string(), expiresAt: ExpiresAt }),
);
