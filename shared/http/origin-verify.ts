import { createHash, timingSafeEqual } from 'node:crypto';
import { config } from '../config.ts';
import { Forbidden } from '../errors.ts';
import { header, type Middleware } from './request.ts';

/**
 * The header CloudFront's `/api/*` origin adds (infra/front-ends.ts). The value is a
 * secret in Secrets Manager, so only requests that came through one of the stage's
 * front-end distributions carry it; a call straight to the `*.execute-api.*` host does not.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

// The secrets' digests, once per configuration (config() keeps the same array until it is re-read).
const secretDigests = new WeakMap<readonly string[], Buffer[]>();

/** Constant-time: hashing first gives equal lengths, and every secret is compared (no early exit). */
function matchesAny(given: string, secrets: readonly string[]): boolean {
  const presented = digest(given);
  let digests = secretDigests.get(secrets);
  if (!digests) secretDigests.set(secrets, (digests = secrets.map(digest)));
  let matched = false;
  for (const secret of digests) matched = timingSafeEqual(presented, secret) || matched;
  return matched;
}

/**
 * Refuses requests that did not come through a front-end origin when ORIGIN_VERIFY_SECRETS
 * is set (deployed stages: current and previous value, so a rotation refuses nobody).
 * Unset locally, where the API on 127.0.0.1 stays directly callable.
 */
export function originVerify(): Middleware {
  return {
    before: async (request) => {
      const secrets = config().ORIGIN_VERIFY_SECRETS;
      if (!secrets) return;
      const given = header(request.event, ORIGIN_VERIFY_HEADER);
      if (given !== undefined && matchesAny(given, secrets)) return;
      throw new Forbidden('Call the API through its front-end origin (https://<front end>/api/v2/...), not the API Gateway host.', {
        error: 'origin_rejected',
      });
    },
  };
}
