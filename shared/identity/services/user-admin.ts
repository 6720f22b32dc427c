import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  InvalidParameterException,
  InvalidPasswordException,
  LimitExceededException,
  TooManyRequestsException,
  UserNotFoundException,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { Conflict, RateLimited, ValidationError } from '../../errors.ts';
import { answeringOutages, clientOptions } from '../../aws-clients.ts';

/**
 * Cognito's admin APIs on one user pool, imported only by functions whose row says
 * `manage-users` (infra grants exactly AdminCreateUser, AdminSetUserPassword and
 * AdminDeleteUser on that pool to them, and nothing to anyone else).
 */
export interface PoolUser {
  /** Cognito's user name: a UUID in a pool that signs in by email. */
  username: string;
  sub: string;
}

export interface UserAdmin {
  /** A user with a permanent password and an unverified email, created silently (no Cognito mail). */
  createUser(email: string, name: string, password: string): Promise<PoolUser>;
  /** Deletes a user; one that is already gone is not an error. */
  deleteUser(username: string): Promise<void>;
}

let sdkClient: CognitoIdentityProviderClient | undefined;
/** The admin APIs' client, built on first use (exported for the fault-injection tests' middleware). */
export const userAdminSdkClient = () =>
  (sdkClient ??= answeringOutages(
    new CognitoIdentityProviderClient(clientOptions('identity provider')),
    'identity provider',
  ));
const cognito = userAdminSdkClient;

function mapped(error: unknown): unknown {
  if (error instanceof UsernameExistsException)
    return new Conflict('An account with this email address exists already.', 'email_taken');
  // The pool's password policy (length, character classes) is Cognito's to enforce.
  if (error instanceof InvalidPasswordException || error instanceof InvalidParameterException) {
    return new ValidationError('The identity provider refuses this password.', [
      { path: 'body.password', message: error.message },
    ]);
  }
  // Throttling of the whole pool is a 503 (shared/aws-clients.ts) before it gets here; a per-user limit is the caller's 429.
  if (error instanceof LimitExceededException || error instanceof TooManyRequestsException) {
    return new RateLimited('The identity provider refuses more requests for now; try again later.', 60);
  }
  return error;
}

export function userAdmin({ userPoolId }: { userPoolId: string }): UserAdmin {
  const deleteUser = async (username: string) => {
    try {
      await cognito().send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: username }));
    } catch (error) {
      if (!(error instanceof UserNotFoundException)) throw error;
    }
  };

  return {
    async createUser(email, name, password) {
      let user: PoolUser;
      try {
        const { User } = await cognito().send(
          new AdminCreateUserCommand({
            UserPoolId: userPoolId,
            Username: email,
            UserAttributes: [
              { Name: 'email', Value: email },
              { Name: 'name', Value: name },
              // The service verifies the address itself (its own mailed token), not Cognito.
              { Name: 'email_verified', Value: 'false' },
            ],
            MessageAction: 'SUPPRESS',
          }),
        );
        const sub = User?.Attributes?.find((attribute) => attribute.Name === 'sub')?.Value;
        if (!User?.Username || !sub) throw new Error('AdminCreateUser answered without a user name or sub.');
        user = { username: User.Username, sub };
      } catch (error) {
        throw mapped(error);
      }
      try {
        // A created user must change a temporary password at first sign-in; a permanent one skips that.
        await cognito().send(
          new AdminSetUserPasswordCommand({
            UserPoolId: userPoolId,
            Username: user.username,
            Password: password,
            Permanent: true,
          }),
        );
      } catch (error) {
        // The user exists but cannot sign in: take it away again, so a retry starts clean.
        await deleteUser(user.username);
        throw mapped(error);
      }
      return user;
    },
    deleteUser,
  };
}
