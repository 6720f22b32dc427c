import { PERMISSIONS } from '../../auth/permissions.ts';
import type { AdministratorProfile } from '../../domain/administrator.ts';
import * as z from '../../schema.ts';

/** The contract of the auth routes (`functions/auth/`): the answers the sign-in and session routes give. */

/** `{success, message}`: bare on the change-password routes, enveloped on the legacy logout and reset routes. */
export const SuccessMessage = z.strictObject({ success: z.literal(true), message: z.string() });

/** `toProfile` (shared/domain/administrator.ts): the administrator record without its password hash. */
export const AdministratorProfileResource = z.strictObject({
  id: z.int(),
  login: z.string(),
  email: z.string(),
  name: z.string(),
  permissions: z.array(z.enum(PERMISSIONS)),
  vendorUser: z.literal([0, 1]),
  /** Set at the first identity-provider sign-in. */
  idpSub: z.optional(z.string()),
  idpUsername: z.optional(z.string()),
  /** The events this administrator is limited to; absent = every event (README "Event-scoped staff"). */
  eventScope: z.optional(z.array(z.int())),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
});

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

// The schema and the type must describe the same objects: a difference fails typecheck.
true satisfies z.Same<z.output<typeof AdministratorProfileResource>, AdministratorProfile>;
true satisfies z.Same<keyof z.output<typeof AdministratorProfileResource>, keyof AdministratorProfile>;
