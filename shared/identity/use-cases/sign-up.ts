import { waitOutFloor } from '../../clock.ts';
import * as z from '../../schema.ts';
import { requireSection } from '../../config.ts';
import { holderOfEmail } from '../data/customers.ts';
import { requireSlots, type RateWindow } from '../../data/rate-limits.ts';
import { normalisedEmail } from '../domain/customer.ts';
import { SIGN_UP_ANSWER, type SignUpInput } from '../domain/sign-up.ts';
import { Conflict } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { sendEmail } from '../../services/email.ts';
import { openAccount } from './create-customer.ts';
import { sendVerificationMail } from './verification-mail.ts';

const { PORTAL_URL } = requireSection('sign-up mails', z.object({ PORTAL_URL: z.url() }));

/** Sign-ups per client network in any hour, whatever the addresses: one client cannot mail many mailboxes. */
export const SIGN_UP_CLIENT = { name: 'SIGN_UP_CLIENT', limit: 10, windowSeconds: 60 * 60 } as const;
/** Sign-ups per address in any 24 hours, new or known: its mailbox gets at most this many mails from here. */
export const SIGN_UP_ADDRESS = { name: 'SIGN_UP_ADDRESS', limit: 3, windowSeconds: 24 * 60 * 60 } as const;
/**
 * Every answer takes at least this long, so creating an account (two Cognito calls, a transaction, the mail)
 * and finding one (a read, a mail) do not tell each other apart by the response time either.
 */
export const SIGN_UP_FLOOR_MS = 1000;

/**
 * `POST /my-account/sign-up {email, password, name}`, public: opens an unverified account and mails the
 * verification link the portal completes (`PUT /my-account` with the token), as `POST /my-account` does.
 * The answer is `SIGN_UP_ANSWER` whether or not the address has an account:
 * - the limits are counted per client network, then per address, before the address is looked up;
 * - an address with an account (or one taken by a racing sign-up, or held by Cognito) changes nothing,
 *   and its owner is mailed that someone tried to sign up with it (`accountExistsMail`), so the owner
 *   learns of it and a person who forgot having an account is pointed to it;
 * - a mail that cannot be sent is logged, never answered; every answer waits out SIGN_UP_FLOOR_MS.
 * Only an outage of Cognito or the table (503) or Cognito's own per-user limit (429) differs, and only for a
 * new address: a caller cannot cause either.
 */
export async function signUp(input: SignUpInput, client: string): Promise<typeof SIGN_UP_ANSWER> {
  const started = performance.now();
  const email = normalisedEmail(input.email);
  const windows: RateWindow[] = [
    { ...SIGN_UP_CLIENT, subject: client },
    { ...SIGN_UP_ADDRESS, subject: email },
  ];
  await requireSlots(windows, (window) =>
    window.name === SIGN_UP_CLIENT.name
      ? `At most ${SIGN_UP_CLIENT.limit} sign-ups per client in an hour; try again later.`
      : `At most ${SIGN_UP_ADDRESS.limit} sign-ups per address in 24 hours; the mails already sent still work.`,
  );
  const holder = await holderOfEmail(email);
  if (holder !== undefined) await tellOwner(email, holder);
  else {
    try {
      const { customer, token } = await openAccount({ ...input, email });
      logger.info('Customer signed up', { customerId: customer.id });
      await sendVerificationMail(email, token, 'new-account', customer.id);
    } catch (error) {
      // Taken between the look-up and the write (a racing sign-up, a Cognito user without a record): as if found.
      if (!(error instanceof Conflict && error.reason === 'email_taken')) throw error;
      await tellOwner(email, await holderOfEmail(email));
    }
  }
  await waitOutFloor(started, SIGN_UP_FLOOR_MS);
  return SIGN_UP_ANSWER;
}

/** The mail to an address that has an account already: nothing changed, and where to sign in. */
export function accountExistsMail(): { subject: string; text: string } {
  const portal = PORTAL_URL.replace(/\/+$/, '');
  return {
    subject: 'Someone tried to sign up with your address',
    text: [
      'Someone asked to create a ticket portal account for this address, but it has one already. Nothing was changed.',
      '',
      `If it was you, sign in at ${portal} with this address and your password. If you have not confirmed the address yet, use the link mailed to you when the account was created.`,
      '',
      'If it was not you, ignore this message.',
    ].join('\n'),
  };
}

async function tellOwner(email: string, customerId: number | undefined): Promise<void> {
  logger.info('Sign-up for an address with an account: its owner is told', { customerId });
  try {
    await sendEmail({ to: email, ...accountExistsMail() });
  } catch (error) {
    logger.error('Account-exists mail failed', { customerId, error: error as Error });
  }
}
