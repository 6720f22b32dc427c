import * as z from './schema.ts';

/**
 * The public half of the service's signing keys as every function receives it (env
 * JWT_PUBLIC_KEYS, validated by config.ts at cold start). Apart from auth/key-set.ts (the
 * whole key set and its transitions) so that config.ts, on the ground floor, imports
 * nothing from the floors above it.
 */
export const ALGORITHM = 'ES256';

export const PublicJwk = z.object({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string().check(z.minLength(1)),
  y: z.string().check(z.minLength(1)),
  kid: z.string().check(z.minLength(1)),
  alg: z.optional(z.literal(ALGORITHM)),
  use: z.optional(z.literal('sig')),
});
export type PublicJwk = z.infer<typeof PublicJwk>;

/** A JWKS as the functions receive it: at least one key, each with its own `kid`. */
export const PublicJwks = z.lazy(() =>
  z
    .object({ keys: z.array(PublicJwk).check(z.minLength(1)) })
    .check(
      z.refine(
        (jwks) => new Set(jwks.keys.map((key) => key.kid)).size === jwks.keys.length,
        'every key needs its own kid',
      ),
    ),
);
export type PublicJwks = z.infer<typeof PublicJwks>;

/** Parses the JWKS JSON string of JWT_PUBLIC_KEYS (or of the secret). */
export function parsePublicJwks(json: string): PublicJwks {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error('not JSON');
  }
  const result = PublicJwks.safeParse(value);
  if (!result.success)
    throw new Error(
      result.error.issues.map((issue) => `${issue.path.join('.') || 'jwks'}: ${issue.message}`).join('; '),
    );
  return result.data;
}
