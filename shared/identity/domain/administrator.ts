import { heldPermissions, PERMISSIONS } from '../../auth/permissions.ts';
import * as z from '../../schema.ts';

/**
 * What `/auth/me` and login answers show (the OpenAPI `AdministratorProfile`): the administrator record without its
 * password hash and session version (`toProfile`).
 */
export const AdministratorProfileResource = z.strictObject({
  id: z.int(),
  login: z.string(),
  email: z.string(),
  name: z.string(),
  permissions: z.array(z.enum(PERMISSIONS)),
  /** 1: a vendor's user, who must sign in through the vendor channel (spec). */
  vendorUser: z.literal([0, 1]),
  /** The Cognito `sub` this record is linked to: set at the first identity-provider sign-in. */
  idpSub: z.optional(z.string()),
  /** The Cognito user name (a UUID when the pool signs in by email), for provider API calls. */
  idpUsername: z.optional(z.string()),
  /** The events this administrator is limited to; absent = every event (README "Event-scoped staff"). */
  eventScope: z.optional(z.array(z.int())),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
});
export type AdministratorProfile = z.output<typeof AdministratorProfileResource>;

/** An administrator: the staff who use the admin SPA (stored by identity/data/administrators.ts): the profile and its secrets. */
export interface Administrator extends AdministratorProfile {
  /** scrypt PHC string (bcrypt for records imported from the old system); absent for identity-provider users. */
  passwordHash?: string;
  /** Raised to end every token issued before (session-versions.ts); absent = 0. */
  sessionVersion?: number;
}

/**
 * Never the hash; the permissions the administrator holds (a stage-wide one is not theirs while limited to some
 * events, so the admin page offers no control a request would refuse).
 */
export const toProfile = ({ passwordHash, sessionVersion, ...profile }: Administrator): AdministratorProfile => ({
  ...profile,
  permissions: heldPermissions(profile.permissions, profile.eventScope),
});

/** When a token stops being accepted: epoch seconds, its `exp` claim (README "Tokens"). */
export const ExpiresAt = z.lazy(() =>
  z
    .int()
    .check(z.positive(), z.describe('When the token expires: epoch seconds (its `exp` claim). Refresh before then.')),
);

/** `POST /auth/legacy/login`: the token (also set as the cookie), its expiry and the profile. */
export const LegacySignIn = z.lazy(() =>
  z.strictObject({
    success: z.literal(true),
    jwt: z.string(),
    expiresAt: ExpiresAt,
    user: AdministratorProfileResource,
  }),
);

/** A legacy sign-in as the login's use case makes it: the answer but its `success`, which the route adds. */
export type LegacyLoginResult = Omit<z.output<typeof LegacySignIn>, 'success'>;
