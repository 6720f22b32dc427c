import * as z from '#shared/schema';
import { resetPassword } from '#shared/identity/use-cases/password-reset';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { SuccessMessage } from '#shared/identity/contract/auth';

export const handler = route(
  'POST /auth/legacy/reset-password',
  {
    body: z.strictObject({
      token: z.string().check(z.minLength(1), z.maxLength(256)),
      newPassword: z.string().check(z.maxLength(4096)),
    }),
  },
  async ({ body }) => dataOnly(await resetPassword(body.token, body.newPassword)),
);

export const answer = () => DataAnswer(SuccessMessage);
