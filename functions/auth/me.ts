import { getAdministrator, toProfile } from '#shared/data/administrators';
import { single } from '#shared/http/envelopes';
import { Unauthorized } from '#shared/http/errors';
import { route } from '#shared/http/route';

export const handler = route('GET /auth/me', {}, async ({ caller }) => {
  // Read the record rather than echo the token, so a removed account or changed permissions show at once.
  const admin = caller && (await getAdministrator(caller.id));
  if (!admin) throw new Unauthorized('The account behind this token no longer exists.');
  return single(toProfile(admin));
});
