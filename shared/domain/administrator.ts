import { heldPermissions, type Permission } from '../auth/permissions.ts';

/** An administrator: the staff who use the admin SPA (stored by data/administrators.ts). */
export interface Administrator {
  id: number;
  login: string;
  email: string;
  name: string;
  permissions: Permission[];
  /** 1: a vendor's user, who must sign in through the vendor channel (spec). */
  vendorUser: 0 | 1;
  /** scrypt PHC string (bcrypt for records imported from the old system); absent for identity-provider users. */
  passwordHash?: string;
  /** The Cognito `sub` this record is linked to (set at the first identity-provider sign-in). */
  idpSub?: string;
  /** The Cognito user name (a UUID when the pool signs in by email), for provider API calls. */
  idpUsername?: string;
  /** Raised to end every token issued before (session-versions.ts); absent = 0. */
  sessionVersion?: number;
  /** The events this administrator may see and scan; absent = every event (README "Event-scoped staff"). */
  eventScope?: number[];
  created: string;
  updated: string;
}

/**
 * What `/auth/me` and login answers show: never the hash; the permissions the administrator holds (a stage-wide one
 * is not theirs while limited to some events, so the admin page offers no control a request would refuse).
 */
export type AdministratorProfile = Omit<Administrator, 'passwordHash' | 'sessionVersion'>;

export const toProfile = ({ passwordHash, sessionVersion, ...profile }: Administrator): AdministratorProfile => ({
  ...profile,
  permissions: heldPermissions(profile.permissions, profile.eventScope),
});
