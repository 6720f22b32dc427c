import * as z from '../../schema.ts';
import { CUSTOMER_PASSWORD_MAX_LENGTH, CUSTOMER_PASSWORD_MIN_LENGTH, NewCustomerInput } from './customer.ts';

/**
 * The public sign-up (`POST /my-account/sign-up`): the fields of `POST /my-account`, and a password held to the
 * customers' pool policy here, before anything is looked up (infra/identity-provider.ts PASSWORD_POLICY: 12
 * characters with a lower-case and an upper-case letter, a digit and a symbol; Cognito refuses a leading or
 * trailing space). Cognito checks the password only when it creates a user, so a password it would refuse
 * must be a 400 for every address alike: otherwise a weak password would answer 400 for a new address and
 * 202 for a known one, telling which addresses have accounts.
 */

/** The symbols Cognito's `requireSymbols` counts (its documented list). */
const COGNITO_SYMBOLS = '^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+-';

const RULES: readonly [test: (password: string) => boolean, message: string][] = [
  [(password) => /[a-z]/.test(password), 'Must hold a lower-case letter.'],
  [(password) => /[A-Z]/.test(password), 'Must hold an upper-case letter.'],
  [(password) => /[0-9]/.test(password), 'Must hold a digit.'],
  [(password) => [...password].some((char) => COGNITO_SYMBOLS.includes(char)), 'Must hold a symbol, such as - or !.'],
  [(password) => password.trim() === password, 'Must not start or end with a space.'],
];

export const SignUpInput = z.lazy(() =>
  z.extend(NewCustomerInput, {
    password: z
      .string()
      .check(
        z.minLength(CUSTOMER_PASSWORD_MIN_LENGTH),
        z.maxLength(CUSTOMER_PASSWORD_MAX_LENGTH),
        ...RULES.map(([test, message]) => z.refine<string>(test, message)),
      ),
  }),
);
export type SignUpInput = z.infer<typeof SignUpInput>;

/** The one answer of a sign-up that was not refused, whether the address was new or had an account already. */
export const SIGN_UP_ANSWER = { status: 'verification_sent' } as const;
export const SignUpAnswer = z.lazy(() => z.strictObject({ status: z.literal('verification_sent') }));
