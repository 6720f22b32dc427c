import { removeProfilePhoto } from '#shared/tickets/use-cases/profile-photo';
import { PathId } from '#shared/http/path-params';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { TicketResource } from '#shared/tickets/contract/tickets';
import { route } from '#shared/http/route';
import { adminActor } from '#shared/identity/use-cases/event-scope';

export const handler = route('DELETE /tickets/{id}/profile-photo', { path: PathId }, async ({ path, caller }) =>
  dataOnly(await removeProfilePhoto(path.id, adminActor(caller))),
);

export const answer = () => DataAnswer(TicketResource);
