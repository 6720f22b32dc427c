import * as z from '#shared/schema';
import { resetPassword } from '#shared/domain/password-reset';
import { route } from '#shared/http/route';

export const handler = route(
  'POST /auth/legacy/reset-password',
  { body: z.strictObject({ token: z.string().check(z.minLength(1), z.maxLength(256)), newPassword: z.string().check(z.maxLength(4096)) }) },
  async ({ body }) => ({ body: { data: await resetPassword(body.token, body.newPassword) } }),
);
