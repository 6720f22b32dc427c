import * as z from '../../schema.ts';
import { requireSection } from '../../config.ts';
import { readSecretString } from '../../services/secrets.ts';

/**
 * Reads the signing key secret (`ticketing/<stage>/signing-keys`) for the functions that
 * issue tokens, reached only from shared/identity/services/signing-key.ts. Infra gives
 * JWT_SIGNING_KEY_SECRET and GetSecretValue on that one secret only to rows with
 * `uses.signingKey`.
 *
 * The section is read lazily, at the first token a container signs: tokens.ts (and so this
 * module) is also imported by functions that only verify.
 */
const Settings = z.lazy(() => z.object({ JWT_SIGNING_KEY_SECRET: z.string().check(z.minLength(1)) }));

/** The secret's id (name or ARN) this function reads. */
export const signingKeySecretId = (): string => requireSection('the signing key', Settings).JWT_SIGNING_KEY_SECRET;

/** The SecretString of the signing key secret, current version. */
export const readSigningKeySecret = (secretId = signingKeySecretId()): Promise<string> => readSecretString(secretId);
