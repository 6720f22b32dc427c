import * as z from '#shared/schema';
import { changeLegacyPassword } from '#shared/identity/use-cases/password-change';
import { SuccessMessage } from '#shared/identity/contract/auth';
import { clientNetwork } from '#shared/http/client-address';
import { route } from '#shared/http/route';

const Password = z.string().check(z.minLength(1), z.maxLength(4096));

export const handler = route(
  'POST /auth/legacy/change-password',
  { body: z.strictObject({ oldPassword: Password, newPassword: Password }) },
  // Spec: this route answers `{ success, message }` without an envelope.
  async ({ caller, body, event }) => ({
    body: await changeLegacyPassword(caller, body.oldPassword, body.newPassword, clientNetwork(event)),
  }),
);

export const answer = () => SuccessMessage;
