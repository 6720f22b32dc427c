import { createHash, timingSafeEqual } from 'node:crypto';
import { Forbidden } from '../errors.ts';
import { originVerifyValues } from '../services/origin-verify-secret.ts';
import { ORIGIN_VERIFY_HEADER } from './origin-verify-header.ts';
import { header, type Middleware } from './request.ts';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

// The values' digests, once per read of the secret (originVerifyValues keeps the same array until it reads again).
const secretDigests = new WeakMap<readonly string[], Buffer[]>();

/** Constant-time: hashing first gives equal lengths, and every secret is compared (no early exit). */
function matchesAny(given: string, secrets: readonly string[]): boolean {
  const presented = digest(given);
  const digests = secretDigests.get(secrets) ?? secrets.map(digest);
  secretDigests.set(secrets, digests);
  let matched = false;
  for (const secret of digests) matched = timingSafeEqual(presented, secret) || matched;
  return matched;
}

/**
 * Refuses requests that did not come through a front-end origin: ORIGIN_VERIFY_SECRET names
 * the stage's secret (deployed stages: its current and previous value, so a rotation refuses
 * nobody). Locally it says `none` and the API on 127.0.0.1 stays directly callable; unset,
 * every request is refused (originVerifyValues throws).
 */
export function originVerify(): Middleware {
  return {
    before: async (request) => {
      const secrets = await originVerifyValues();
      if (!secrets) return;
      const given = header(request.event, ORIGIN_VERIFY_HEADER);
      if (given !== undefined && matchesAny(given, secrets)) return;
      throw new Forbidden(
        'Call the API through its front-end origin (https://<front end>/api/v2/...), not the API Gateway host.',
        {
          error: 'origin_rejected',
        },
      );
    },
  };
}
