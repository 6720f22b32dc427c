import { currentProfile } from '#shared/use-cases/auth/admin-session';
import { single } from '#shared/http/envelopes';
import { SingleAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { AdministratorProfileResource } from '#shared/http/contract/auth';

export const handler = route('GET /auth/me', {}, async ({ caller }) => single(await currentProfile(caller)));

export const answer = () => SingleAnswer(AdministratorProfileResource);
