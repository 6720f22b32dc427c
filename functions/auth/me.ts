import { toProfile } from '#shared/data/administrators';
import { currentAdministrator } from '#shared/domain/admin-session';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';

export const handler = route('GET /auth/me', {}, async ({ caller }) => single(toProfile(await currentAdministrator(caller))));
