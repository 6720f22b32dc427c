import { randomBytes } from 'node:crypto';
import { waitOutFloor } from '../../clock.ts';
import * as z from '../../schema.ts';
import { requireSection } from '../../config.ts';
import { findAdministratorByEmail, normalisedEmail } from '../data/administrators.ts';
import { takeSlot } from '../../data/rate-limits.ts';
import { deleteResetToken, storeResetToken } from '../data/reset-tokens.ts';
import { DependencyUnavailable, RateLimited } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { sendEmail } from '../../services/email.ts';
import { requireAuthMode } from './auth-mode.ts';
import { RESET_MAIL_CLIENT } from './login-guard.ts';
import { hashResetToken } from '../domain/reset-token-hash.ts';

const { ADMIN_UI_URL } = requireSection('password reset links', z.object({ ADMIN_UI_URL: z.url() }));

/** Spec, Limits: 3 forgot-password requests per address per 24 hours; tokens live 24 hours. */
export const FORGOT_PASSWORD_LIMIT = 3;
export const DAY_SECONDS = 24 * 60 * 60;
/** Requests per client address in any hour, whatever the addresses asked for (login-guard.ts RESET_MAIL_CLIENT). */
export const FORGOT_PASSWORD_CLIENT_LIMIT = RESET_MAIL_CLIENT.limit;
export const RESET_TOKEN_TTL_SECONDS = DAY_SECONDS;
const TOKEN_BYTES = 32;
/**
 * Every answer takes at least this long, so the extra work for a known address (storing
 * the token, sending the mail: typically well under this in AWS) does not show in the
 * response time either. Forgot-password is rare and rate-limited, so the wait is cheap.
 */
export const ANSWER_FLOOR_MS = 600;

export const FORGOT_PASSWORD_ANSWER = {
  success: true,
  message:
    'If an account uses this address, a link to reset its password is on its way. The link is valid for 24 hours.',
};

/**
 * Forgot-password: the same answer whether or not the account exists. The limit is
 * counted per address string *before* looking the account up, for unknown addresses
 * exactly as for known ones, so neither the answer nor the 429 reveals an account.
 * Every answer waits out ANSWER_FLOOR_MS, for the same reason.
 *
 * A mail that cannot be sent takes its token with it: the token is deleted again, so no
 * token is left usable whose link never left; a mail outage answers 503 + Retry-After
 * (README "Faults and retries"), a refused message the usual answer. The 503 tells that
 * the account exists, but only during a mail outage, which a caller cannot cause (the
 * limits below bound the mail it can ask for).
 *
 * The limits bound the mail sent (per client address first, so a client over its limit
 * spends none of an address's requests; then per address); they never touch the links
 * already sent: a request does not void earlier tokens, so someone asking on another's
 * behalf fills the owner's mailbox with working links at most, and cannot block a reset.
 */
export async function requestPasswordReset(email: string, client: string): Promise<typeof FORGOT_PASSWORD_ANSWER> {
  requireAuthMode('legacy');
  const started = performance.now();
  const bySender = await takeSlot(
    RESET_MAIL_CLIENT.name,
    client,
    RESET_MAIL_CLIENT.limit,
    RESET_MAIL_CLIENT.windowSeconds,
  );
  if (!bySender.allowed) {
    logger.warn('Forgot-password refused: client over its limit', { clientAddress: client });
    throw new RateLimited(
      `At most ${FORGOT_PASSWORD_CLIENT_LIMIT} reset requests per client in an hour.`,
      bySender.retryAfterSeconds,
    );
  }
  const slot = await takeSlot('FORGOT_PASSWORD', normalisedEmail(email), FORGOT_PASSWORD_LIMIT, DAY_SECONDS);
  if (!slot.allowed) {
    throw new RateLimited(
      `At most ${FORGOT_PASSWORD_LIMIT} reset requests per address in 24 hours; the links already mailed still work.`,
      slot.retryAfterSeconds,
    );
  }
  const admin = await findAdministratorByEmail(email);
  // Only records with their own password (legacy users) can reset it here.
  if (admin?.passwordHash) {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const tokenHash = hashResetToken(token);
    await storeResetToken(tokenHash, admin.id, RESET_TOKEN_TTL_SECONDS);
    const link = `${ADMIN_UI_URL.replace(/\/+$/, '')}/reset-password#token=${token}`;
    try {
      await sendEmail({
        to: admin.email,
        subject: 'Reset your password',
        text: `Someone asked to reset the password of your ticketing account.\n\nTo choose a new one, open:\n${link}\n\nThe link works once, for 24 hours. If it was not you, ignore this message.`,
      });
    } catch (error) {
      logger.error('Password reset mail failed; its token is withdrawn', { adminId: admin.id, error: error as Error });
      await withdrawToken(tokenHash, admin.id);
      // An outage is worth a retry (503); a refused message (an address SES will not mail) is not.
      if (error instanceof DependencyUnavailable) {
        await waitOutFloor(started, ANSWER_FLOOR_MS);
        throw error;
      }
    }
  }
  await waitOutFloor(started, ANSWER_FLOOR_MS);
  return FORGOT_PASSWORD_ANSWER;
}

/**
 * Deletes the token of a mail that failed. If even that fails the token stays until its
 * TTL, but nobody holds it: it existed only in the mail that was not sent (SES may have
 * sent a mail that timed out after all; its link then fails and the owner asks again).
 */
async function withdrawToken(tokenHash: string, adminId: number): Promise<void> {
  try {
    await deleteResetToken(tokenHash);
  } catch (error) {
    logger.error('Could not withdraw the token of an unsent reset mail', { adminId, error: error as Error });
  }
}
