import * as z from '../schema.ts';
import type { AdministratorProfile } from '../domain/administrator.ts';
import type { CheckInStats } from '../domain/check-in.ts';
import { PERMISSIONS } from '../auth/permissions.ts';

/**
 * The success answers as schemas, declared by each route beside its input schemas
 * (`route(key, { ..., response, status })`). Each envelope builder here describes what
 * its runtime twin in envelopes.ts writes. Nothing parses answers per request: the
 * OpenAPI generator documents them and the tests parse real answers with them.
 * Resources live beside their types (shared/domain/*-resource.ts); the two whose types
 * live in data/ (which domain/ may not import) are here, with the auth answers.
 */

const size = () => z.int().check(z.minimum(0));

/** `single`: `{count: 1, data}`. */
export const SingleAnswer = <T extends z.ZodMiniType>(data: T) => z.strictObject({ count: z.literal(1), data });

/** `dataOnly`: `{data}`. */
export const DataAnswer = <T extends z.ZodMiniType>(data: T) => z.strictObject({ data });

/** `paged`: `{totalCount, count, limit, offset, data}`. */
export const PageAnswer = <T extends z.ZodMiniType>(item: T) =>
  z.strictObject({ totalCount: size(), count: size(), limit: size(), offset: size(), data: z.array(item) });

/**
 * The ticket lists' page (`GET /tickets`, `GET /ticket`): the page envelope plus `next` (the
 * `_cursor` of the following page, null on the last) and, only when true,
 * `totalCountIsEstimate` (the OpenAPI description of GET /tickets).
 */
export const CursorPageAnswer = <T extends z.ZodMiniType>(item: T) =>
  z.extend(PageAnswer(item), { next: z.nullable(z.string()), totalCountIsEstimate: z.optional(z.literal(true)) });

/**
 * `asResult` with `result=id|object`: `{count: 1, data: id}` or `{count: 1, data: object}`.
 * `result=none` answers 204 with no body (the generator documents that alternative).
 */
export const ResultAnswer = <T extends z.ZodMiniType>(object: T) => SingleAnswer(z.union([z.int(), object]));

/**
 * `bulk`: `{count, data: [entry]}`, one entry per item in request order. `object` is the
 * schema of a successful entry's `object` as it appears: wrap it in `z.optional` where
 * it comes only with `result=object`, omit it where entries never carry one.
 * A failed entry echoes the item's id as sent (null when it had none).
 */
export function BulkAnswer<T extends z.ZodMiniType>(object?: T) {
  const ok = z.strictObject({ id: z.int(), status: z.literal('ok'), ...(object ? { object } : {}) });
  const error = z.strictObject({ id: z.nullable(z.number()), status: z.literal('error'), error: z.string() });
  return z.strictObject({ count: size(), data: z.array(z.discriminatedUnion('status', [ok, error])) });
}

/** `{success, message}`: bare on the change-password routes, enveloped on the legacy logout and reset routes. */
export const SuccessMessage = z.strictObject({ success: z.literal(true), message: z.string() });

// ---- Resources whose types live in data/ -------------------------------------------

/** `toProfile` (shared/data/administrators.ts): the administrator record without its password hash. */
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

/** `GET /tickets/check-in-stats`: the requested events (each once), sold and checked-in tickets. */
export const CheckInStatsResource = z.strictObject({
  eventIds: z.array(z.int()),
  soldTickets: z.int(),
  checkedInTickets: z.int(),
});

// ---- The auth answers (README "Authentication") ---------------------------------------

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

/** The schemas and the types must describe the same objects: a difference fails typecheck. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<z.output<typeof AdministratorProfileResource>, AdministratorProfile>;
true satisfies Same<keyof z.output<typeof AdministratorProfileResource>, keyof AdministratorProfile>;
true satisfies Same<z.output<typeof CheckInStatsResource>, CheckInStats>;
