import { changeIdpPassword } from '#shared/use-cases/auth/idp-account';
import { route } from '#shared/http/route';

// Spec: `{ success, message }` without an envelope.
export const handler = route('POST /auth/change-password', {}, async ({ caller }) => ({ body: await changeIdpPassword(caller) }));
