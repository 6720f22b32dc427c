import * as z from '../schema.ts';
import { config, NO_ORIGIN_CHECK } from '../config.ts';
import { logger } from '../logger.ts';
import { readSecretString } from './secrets.ts';
import { keptPerContainer } from '../container-state.ts';

/**
 * The values CloudFront's x-origin-verify header may carry, read from the stage's secret
 * (ORIGIN_VERIFY_SECRET, its ARN) at a container's first request and again every
 * REFRESH_SECONDS: never in the function's configuration (where `lambda:GetFunctionConfiguration`
 * would show it), and a rotation reaches every function without a deploy (README, "Rotating
 * the origin-verify value"). The secret is JSON `{current, previous?}`; both are accepted.
 */
export const REFRESH_SECONDS = 300;

const Stored = z.lazy(() =>
  z.object({
    current: z.string().check(z.minLength(16)),
    previous: z.optional(z.string().check(z.minLength(16))),
  }),
);

let held: { values: readonly string[]; readAt: number } | undefined;
let pending: Promise<readonly string[]> | undefined;

/**
 * The accepted values; undefined where the environment says there is no origin check
 * (ORIGIN_VERIFY_SECRET=none: the local server on 127.0.0.1 and the tests). Fails closed: a
 * function without the setting throws (every request a 500, which the 5xx alarms see) rather
 * than let requests that skipped CloudFront through.
 */
export async function originVerifyValues(now = Date.now()): Promise<readonly string[] | undefined> {
  const secretId = config().ORIGIN_VERIFY_SECRET;
  if (secretId === NO_ORIGIN_CHECK) return undefined;
  if (!secretId)
    throw new Error(
      `ORIGIN_VERIFY_SECRET is unset: every request is refused until it names the stage's origin-verify secret (or is "${NO_ORIGIN_CHECK}" where no front end stands in front, locally).`,
    );
  if (held && now - held.readAt < REFRESH_SECONDS * 1000) return held.values;
  pending ??= read(secretId, now).finally(() => {
    pending = undefined;
  });
  try {
    return await pending;
  } catch (error) {
    // Keep accepting what was accepted a moment ago rather than refusing every request during a Secrets Manager blip.
    if (!held) throw error;
    logger.warn('Origin-verify secret not refreshed; keeping the values read before', { error: error as Error });
    return held.values;
  }
}

async function read(secretId: string, now: number): Promise<readonly string[]> {
  const parsed = Stored.safeParse(JSON.parse(await readSecretString(secretId)));
  if (!parsed.success)
    throw new Error(`The origin-verify secret ${secretId} is not {current, previous?} of at least 16 characters each.`);
  const values = [...new Set([parsed.data.current, ...(parsed.data.previous ? [parsed.data.previous] : [])])];
  held = { values, readAt: now };
  return values;
}

// A new container reads the secret again (tests change it in place).
keptPerContainer(() => {
  held = undefined;
  pending = undefined;
});
