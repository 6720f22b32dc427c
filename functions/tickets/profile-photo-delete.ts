import { removeProfilePhoto } from '#shared/use-cases/tickets/profile-photo';
import { PathId } from '#shared/http/bulk';
import { dataOnly } from '#shared/http/envelopes';
import { route } from '#shared/http/route';

export const handler = route('DELETE /tickets/{id}/profile-photo', { path: PathId }, async ({ path, caller }) =>
  dataOnly(await removeProfilePhoto(path.id, { kind: 'admin', id: caller.id })),
);
