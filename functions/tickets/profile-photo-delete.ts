import { removeProfilePhoto } from '#shared/use-cases/tickets/profile-photo';
import { PathId } from '#shared/http/path-params';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { TicketResource } from '#shared/http/contract/tickets';
import { route } from '#shared/http/route';
import { adminActor } from '#shared/use-cases/event-scope';

export const handler = route('DELETE /tickets/{id}/profile-photo', { path: PathId }, async ({ path, caller }) =>
  dataOnly(await removeProfilePhoto(path.id, adminActor(caller))),
);

export const answer = () => DataAnswer(TicketResource);
