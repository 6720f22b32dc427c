import { removeProfilePhoto } from '#shared/domain/profile-photo';
import { PathId } from '#shared/http/bulk';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';

export const handler = route('DELETE /tickets/{id}/profile-photo', { path: PathId }, async ({ path }) =>
  single(await removeProfilePhoto(path.id)),
);
