import {
  accountFailures,
  countAccountFailure,
  failAttempt,
  forgetSubject,
  releaseAttempt,
  reserveAttempt,
  type Reservation,
  type Subject,
  type ThrottleRule,
} from '../data/login-throttle.ts';
import { RateLimited } from '../../errors.ts';
import { logger } from '../../logger.ts';
import type { LoginKind } from '../../metric-names.ts';
import { loginDigest } from './login-digest.ts';

/**
 * Password attempts (README "Throttled logins"). Each attempt is reserved before the
 * password is checked, so parallel guesses cannot outrun a limit:
 * - PAIR_RULE, per account and client network: 5 failures lock that network out of that
 *   account (60 s, doubling to an hour). The owner on another network is not locked out.
 * - CLIENT_RULE, per client network across accounts: 20 failures lock the network out.
 * - ACCOUNT_RULE, per account across networks: past 50 failures in 15 minutes (counted over this fixed window
 *   and the one before, so failures across a window's turn add up) the account is under attack and each network gets 1 attempt per window instead of 5, so a
 *   botnet's guesses slow to one per network, while a network that has not failed (the
 *   owner's) still has its attempt: a right password from it is never refused.
 */
export const PAIR_RULE: ThrottleRule = {
  name: 'LOGIN_FAILURES_PAIR',
  failures: 5,
  windowSeconds: 15 * 60,
  lockSeconds: 60,
  maxLockSeconds: 60 * 60,
};
export const CLIENT_RULE: ThrottleRule = {
  name: 'LOGIN_FAILURES_CLIENT',
  failures: 20,
  windowSeconds: 15 * 60,
  lockSeconds: 60,
  maxLockSeconds: 60 * 60,
};
export const ACCOUNT_RULE: ThrottleRule = {
  name: 'LOGIN_FAILURES_ACCOUNT',
  failures: 50,
  windowSeconds: 15 * 60,
  lockSeconds: 0,
  maxLockSeconds: 0,
};
/** A network's attempts per window on an account under attack. */
export const UNDER_ATTACK_ATTEMPTS = 1;

/**
 * Password-reset mails of any kind (legacy forgot-password, the provider's reset code) per
 * client address: one client cannot mail many mailboxes. A `takeSlot` window (rate-limits.ts).
 */
export const RESET_MAIL_CLIENT = { name: 'FORGOT_PASSWORD_CLIENT', limit: 10, windowSeconds: 60 * 60 } as const;

export interface LoginGuard {
  /** The attempt failed (wrong password or unknown account): it stays counted, and is logged. */
  failed(reason: string): Promise<void>;
  /** The right password: this network's failures on the account are forgotten, its attempt on the network given back. */
  succeeded(): Promise<void>;
}

/**
 * Opens a password check: reserves one attempt on the account from this client network and
 * one on the network, or answers 429 with Retry-After before the password is looked at.
 * `account` is the normalised login, the same for known and unknown ones; `client` the
 * client network (shared/http/client-address.ts). Cost: one BatchGetItem (the account's failures over two windows)
 * and two UpdateItems;
 * a failure adds one UpdateItem (two when it starts a lock-out); a success one DeleteItem
 * and one UpdateItem.
 */
export async function guardLogin(kind: LoginKind, account: string, client: string): Promise<LoginGuard> {
  // Administrators and customers are separate account namespaces; the client counts across both.
  const accountKey = `${kind === 'customer' ? 'customer' : 'admin'}:${account}`;
  const pairLimit =
    (await accountFailures(ACCOUNT_RULE, accountKey)) >= ACCOUNT_RULE.failures
      ? UNDER_ATTACK_ATTEMPTS
      : PAIR_RULE.failures;
  const pair: Subject = { rule: PAIR_RULE, value: `${accountKey}#${client}` };
  const network: Subject = { rule: CLIENT_RULE, value: client };
  // One after the other: reserved at once, the 5 attempts that won the pair's slots could all
  // lose the network's (and give theirs back), leaving a burst where nobody is checked at all.
  const onPair = await reserveAttempt(pair, pairLimit);
  const onNetwork = onPair.reserved ? await reserveAttempt(network, CLIENT_RULE.failures) : onPair;
  // What the logs say of the attempt, made only when something is logged (the digest's key is one read per container).
  const logged = async () => ({ login: kind, account: await loginDigest(account), clientAddress: client });
  if (!onPair.reserved || !onNetwork.reserved) {
    // The attempt is not made: give back whichever reservation was taken.
    await Promise.all([onPair, onNetwork].flatMap((held) => (held.reserved ? [releaseAttempt(held.reservation)] : [])));
    const wait = Math.max(
      onPair.reserved ? 0 : onPair.retryAfterSeconds,
      onNetwork.reserved ? 0 : onNetwork.retryAfterSeconds,
    );
    logger.warn('Login refused: locked out', { ...(await logged()), retryAfterSeconds: wait });
    throw new RateLimited('Too many failed sign-ins: try again later.', wait);
  }
  return guardOf(onPair.reservation, pairLimit, onNetwork.reservation, accountKey, logged);
}

function guardOf(
  pair: Reservation,
  pairLimit: number,
  network: Reservation,
  accountKey: string,
  logged: () => Promise<Record<string, string>>,
): LoginGuard {
  return {
    failed: async (reason) => {
      const [pairLock, networkLock] = await Promise.all([
        failAttempt(pair, pairLimit),
        failAttempt(network, CLIENT_RULE.failures),
        countAccountFailure(ACCOUNT_RULE, accountKey),
      ]);
      logger.warn('Failed login', {
        ...(await logged()),
        reason,
        lockedOutSeconds: Math.max(pairLock ?? 0, networkLock ?? 0),
      });
    },
    succeeded: async () => {
      await Promise.all([forgetSubject(pair.subject), releaseAttempt(network)]);
    },
  };
}
