import { randomBytes } from 'node:crypto';
import * as z from '../../schema.ts';
import { requireSection } from '../../config.ts';
import { hashClaimToken } from '../domain/claim.ts';
import { logger } from '../../logger.ts';
import { sendEmail } from '../../services/email.ts';

/**
 * The mail that sends a claim link to its claimant. The link opens the customer portal
 * (PORTAL_URL), whose claim page has the claimant sign in and present the token
 * (`acceptClaim`, accept-claim.ts). Imported only by the two routes whose rows use email.
 */
const { PORTAL_URL } = requireSection('claim links', z.object({ PORTAL_URL: z.url() }));

const TOKEN_BYTES = 32;

/** A new token (32 random bytes, base64url) and the hash that is all the table keeps of it. */
export function newClaimToken(): { token: string; tokenHash: string } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, tokenHash: hashClaimToken(token) };
}

/**
 * Sends the link. The claim is already committed, so a failed send is logged, not
 * answered: the administrator sends a fresh link with the claimant route (same address).
 */
export async function sendClaimMail(to: string, token: string, ticketId: number): Promise<void> {
  const link = `${PORTAL_URL.replace(/\/+$/, '')}/claim#token=${token}`;
  try {
    await sendEmail({
      to,
      subject: 'A ticket is waiting for you',
      text: `A ticket was sent to this address for you to claim. Open the link, sign in to the ticket portal (or create an account) and the ticket is yours:\n\n${link}\n\nThe link works once, for 14 days. If you did not expect this message, ignore it.`,
    });
  } catch (error) {
    logger.error('Claim mail failed', { ticketId, error: error as Error });
  }
}
