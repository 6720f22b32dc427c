import { currentProfile } from '#shared/use-cases/auth/admin-session';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';

export const handler = route('GET /auth/me', {}, async ({ caller }) => single(await currentProfile(caller)));
