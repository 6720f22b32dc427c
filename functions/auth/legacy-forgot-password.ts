import * as z from '#shared/schema';
import { requestPasswordReset } from '#shared/identity/use-cases/password-reset-request';
import { clientNetwork } from '#shared/http/client-address';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { SuccessMessage } from '#shared/identity/contract/auth';

export const handler = route(
  'POST /auth/legacy/forgot-password',
  { body: z.strictObject({ email: z.email().check(z.maxLength(254)) }) },
  // Spec: `{ data: { success, message } }`, byte-identical for known and unknown addresses.
  async ({ body, event }) => dataOnly(await requestPasswordReset(body.email, clientNetwork(event))),
);

export const answer = () => DataAnswer(SuccessMessage);
