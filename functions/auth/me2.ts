import { currentProfile } from '#shared/identity/use-cases/admin-session';
import { single } from '#shared/http/envelopes';
import { SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { AdministratorProfileResource } from '#shared/identity/contract/auth';

// Deprecated twin of GET /auth/me: route() adds the Deprecation and Link headers from the row's `successor`.
export const handler = route('GET /auth/me2', {}, async ({ caller }) => single(await currentProfile(caller)));

export const answer = () => SingleAnswer(AdministratorProfileResource);
