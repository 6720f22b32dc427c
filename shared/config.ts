import { parsePublicJwks } from './public-keys.ts';
import * as z from './schema.ts';
import { keptPerContainer } from './container-state.ts';

/**
 * The environment, validated once when a function (or the local server) starts.
 * Nothing else reads `process.env`: a missing or malformed variable fails the cold
 * start with a message naming it, instead of a 500 in the middle of a request.
 *
 * Sections that only some routes need (the table, email, photos, identity provider) are
 * validated by `requireSection` when the module that uses them is first loaded.
 */
const commaList = z.lazy(() =>
  z.pipe(
    z.string(),
    z.transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ),
);

const jwks = z.lazy(() =>
  z.pipe(
    z.string(),
    z.transform((value, context) => {
      try {
        return parsePublicJwks(value);
      } catch (error) {
        context.issues.push({
          code: 'custom',
          message: `must be a JWKS of ES256 keys: ${(error as Error).message}`,
          input: value,
        });
        return z.NEVER;
      }
    }),
  ),
);

const baseSchema = z.lazy(() =>
  z.object({
    STAGE: z.string().check(z.minLength(1)),
    SITE_AUTH_METHOD: z.enum(['idp', 'legacy']),
    /**
     * The public JWKS of the service's own tokens (ES256), current key first: every
     * function verifies with it; the issuing ones sign with the first key's private half.
     */
    JWT_PUBLIC_KEYS: jwks,
    JWT_ISSUER: z.string().check(z.minLength(1)),
    /**
     * Origins of the admin SPA: CORS and the CSRF check of admin routes, the login redirect
     * allowlist. The portal's are separate (PORTAL_ORIGINS): each audience's routes accept
     * only its own front end, so a flaw in one front end cannot act on the other's routes.
     */
    ADMIN_ORIGINS: z.pipe(commaList, z.array(z.url()).check(z.minLength(1))),
    /** Origins of the customer portal: CORS and the CSRF check of customer routes. Public routes take both lists. */
    PORTAL_ORIGINS: z.pipe(commaList, z.array(z.url()).check(z.minLength(1))),
    LOG_LEVEL: z._default(z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']), 'INFO'),
    /**
     * The secret (ARN) holding the x-origin-verify values CloudFront sends
     * (shared/services/origin-verify-secret.ts), or NO_ORIGIN_CHECK where no front end stands
     * in front (the local server, tests). Unset, the check fails closed: every request is refused.
     */
    ORIGIN_VERIFY_SECRET: z.optional(
      z.string().check(z.minLength(1, 'ORIGIN_VERIFY_SECRET must name a secret when set')),
    ),
  }),
);

export type Config = z.infer<typeof baseSchema>;

/** ORIGIN_VERIFY_SECRET's value where requests do not come through CloudFront, said explicitly (never by leaving it unset). */
export const NO_ORIGIN_CHECK = 'none';

function describe(error: z.core.$ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`).join('; ');
}

function parse<T extends z.ZodMiniType>(schema: T, what: string): z.infer<T> {
  const result = schema.safeParse(process.env);
  if (!result.success) throw new Error(`Invalid environment for ${what}: ${describe(result.error)}`);
  return result.data;
}

let cached: Config | undefined;

/** The validated base configuration (parsed on first call, then cached). */
export function config(): Config {
  cached ??= parse(baseSchema, 'the service');
  return cached;
}

/** Validates and returns a section of the environment that only some routes need. */
export function requireSection<T extends z.ZodMiniType>(name: string, schema: T): z.infer<T> {
  return parse(schema, name);
}

// A new container parses the environment again (tests change it between cases).
keptPerContainer(() => {
  cached = undefined;
});
