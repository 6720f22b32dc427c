import { AdministratorProfileResource } from '../domain/administrator.ts';
import * as z from '../../schema.ts';

/** The contract of the auth routes (`functions/auth/`): the answers the sign-in and session routes give. */

/** The administrator as the API answers it: its schema lives with the domain type it defines. */
export { AdministratorProfileResource };

/** `{success, message}`: bare on the change-password routes, enveloped on the legacy logout and reset routes. */
export const SuccessMessage = z.strictObject({ success: z.literal(true), message: z.string() });

/** `POST /auth/login`, `/auth/vendor/login`: where to send the browser. */
export const AuthUrl = z.strictObject({ auth_url: z.url() });
/** `POST /auth/logout`: the provider's logout URL. */
export const LogoutUrl = z.strictObject({ success: z.literal(true), logout_url: z.url() });
/** When a token stops being accepted: epoch seconds, its `exp` claim (README "Tokens"). */
export const ExpiresAt = z
  .int()
  .check(z.positive(), z.describe('When the token expires: epoch seconds (its `exp` claim). Refresh before then.'));
/** `POST /auth/refresh`: the new token, also set as the cookie (bearer clients take it from here). */
export const Refreshed = z.strictObject({ refreshed: z.literal(true), token: z.string(), expiresAt: ExpiresAt });
/** `POST /auth/legacy/login`: the token (also set as the cookie), its expiry and the profile. */
export const LegacySignIn = z.strictObject({
  success: z.literal(true),
  jwt: z.string(),
  expiresAt: ExpiresAt,
  user: AdministratorProfileResource,
});
