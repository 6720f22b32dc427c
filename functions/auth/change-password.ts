import { changeIdpPassword } from '#shared/identity/use-cases/idp-account';
import { SuccessMessage } from '#shared/identity/contract/auth';
import { clientNetwork } from '#shared/http/client-address';
import { route } from '#shared/http/route';

// Spec: `{ success, message }` without an envelope.
export const handler = route('POST /auth/change-password', {}, async ({ caller, event }) => ({
  body: await changeIdpPassword(caller, clientNetwork(event)),
}));

export const answer = () => SuccessMessage;
