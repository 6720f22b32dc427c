import { randomBytes } from 'node:crypto';
import * as z from '../../schema.ts';
import { requireSection } from '../../config.ts';
import { hashVerificationToken } from '../domain/customer.ts';
import { logger } from '../../logger.ts';
import { sendEmail } from '../../services/email.ts';

/**
 * The mail that verifies a customer's address, for the routes that write a token (create,
 * update). The link opens the customer portal (PORTAL_URL), whose page signs in with
 * `PUT /my-account {login, password, emailVerificationToken}`.
 */
const { PORTAL_URL } = requireSection('email verification links', z.object({ PORTAL_URL: z.url() }));

const TOKEN_BYTES = 32;

/** A new token (32 random bytes, base64url) and the hash that is all the table keeps of it. */
export function newVerificationToken(): { token: string; tokenHash: string } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, tokenHash: hashVerificationToken(token) };
}

export type VerificationPurpose = 'new-account' | 'new-address';

const MAILS: Record<VerificationPurpose, { subject: string; intro: string }> = {
  'new-account': {
    subject: 'Confirm your email address',
    intro:
      'An account for the ticket portal was created for this address. Before you can sign in, confirm the address:',
  },
  'new-address': {
    subject: 'Confirm your new email address',
    intro: 'You asked to use this address for your ticket portal account. It becomes your login once you confirm it:',
  },
};

/**
 * Sends the link. The account (or the pending change) is already committed, so a failed
 * send is logged, not answered. A lost address-change mail is asked for again by PATCHing
 * the address again; a lost account mail has no resend route yet (the OpenAPI description of POST /my-account).
 */
export async function sendVerificationMail(
  to: string,
  token: string,
  purpose: VerificationPurpose,
  customerId: number,
): Promise<void> {
  const link = `${PORTAL_URL.replace(/\/+$/, '')}/verify-email#token=${token}`;
  const { subject, intro } = MAILS[purpose];
  try {
    await sendEmail({
      to,
      subject,
      text: `${intro}\n\n${link}\n\nOpen it and sign in with your email address and password. The link works once, for 48 hours. If you did not expect this message, ignore it.`,
    });
  } catch (error) {
    logger.error('Verification mail failed', { customerId, purpose, error: error as Error });
  }
}
