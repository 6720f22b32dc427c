import { clearFailures, countFailure, lockedForSeconds, type Subject, type ThrottleRule } from '../../data/login-throttle.ts';
import { RateLimited } from '../../errors.ts';
import { logger } from '../../logger.ts';
import type { LoginKind } from '../../metric-names.ts';

/**
 * Failed password checks per account, and per client address across accounts (README
 * "Throttled logins"). The account rule stops guessing one password from many
 * addresses; the client rule stops one address trying a password on many accounts.
 */
export const ACCOUNT_RULE: ThrottleRule = { name: 'LOGIN_FAILURES_ACCOUNT', failures: 5, windowSeconds: 15 * 60, lockSeconds: 60, maxLockSeconds: 60 * 60 };
export const CLIENT_RULE: ThrottleRule = { name: 'LOGIN_FAILURES_CLIENT', failures: 20, windowSeconds: 15 * 60, lockSeconds: 60, maxLockSeconds: 60 * 60 };

/**
 * Password-reset mails of any kind (legacy forgot-password, the provider's reset code) per
 * client address: one client cannot mail many mailboxes. A `takeSlot` window (rate-limits.ts).
 */
export const RESET_MAIL_CLIENT = { name: 'FORGOT_PASSWORD_CLIENT', limit: 10, windowSeconds: 60 * 60 } as const;

export interface LoginGuard {
  /** Counts a wrong password (or unknown account) against both subjects and logs it. */
  failed(reason: string): Promise<void>;
  /** The right password: the account's failures are forgotten (the client's are not). */
  succeeded(): Promise<void>;
}

/**
 * Opens a password check: 429 with Retry-After while the account or the client is locked
 * out, before the password is looked at, so the right password is refused as well during
 * a lock-out. `account` is the normalised login, the same for known and unknown ones.
 * Cost: two GetItems; a failure adds a GetItem and a PutItem per subject; a success after
 * failures one DeleteItem.
 */
export async function guardLogin(kind: LoginKind, account: string, client: string): Promise<LoginGuard> {
  // Administrators and customers are separate account namespaces; the client counts across both.
  const accountSubject: Subject = { rule: ACCOUNT_RULE, value: `${kind === 'customer' ? 'customer' : 'admin'}:${account}` };
  const subjects = [accountSubject, { rule: CLIENT_RULE, value: client }];
  const { seconds: wait, counted } = await lockedForSeconds(subjects);
  if (wait > 0) {
    logger.warn('Login refused: locked out', { login: kind, account, clientAddress: client, retryAfterSeconds: wait });
    throw new RateLimited('Too many failed sign-ins: try again later.', wait);
  }
  return {
    failed: async (reason) => {
      const [accountLock, clientLock] = await Promise.all(subjects.map(countFailure));
      logger.warn('Failed login', { login: kind, account, clientAddress: client, reason, lockedOutSeconds: Math.max(accountLock!, clientLock!) });
    },
    // Nothing to clear (the usual case) costs nothing.
    succeeded: async () => {
      if (counted[0]) await clearFailures(accountSubject);
    },
  };
}
