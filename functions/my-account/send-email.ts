import * as z from '#shared/schema';
import { ACCOUNT_MAIL_TYPES } from '#shared/identity/domain/account-mail';
import { SingleAnswer } from '#shared/http/answers';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { sendAccountMail } from '#shared/identity/use-cases/account-mail';

const Body = z.strictObject({
  email: z.email('must be an email address').check(z.maxLength(254)),
  type: z.enum(ACCOUNT_MAIL_TYPES, `must be one of ${ACCOUNT_MAIL_TYPES.join(', ')}`),
});
/** One of a fixed set of mails, to the caller's own address (the OpenAPI description of PUT /my-account/email). */
export const handler = route('PUT /my-account/email', { body: Body }, async ({ body, caller }) =>
  single(await sendAccountMail(caller, body)),
);

export const answer = () =>
  SingleAnswer(z.strictObject({ sent: z.literal(true), type: z.enum(ACCOUNT_MAIL_TYPES), email: z.string() }));
