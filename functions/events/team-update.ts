import { SingleAnswer } from '#shared/http/answers';
import { PathEventTeam, TeamBody, TeamResource } from '#shared/events/contract/event-parts';
import { single } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { renameTeamFor } from '#shared/events/use-cases/teams';

/** A rename shows at once wherever the team is read (tickets name it by id). */
export const handler = route(
  'PATCH /events/{id}/teams/{teamId}',
  { path: PathEventTeam, body: TeamBody },
  async ({ path, body, caller }) => single(await renameTeamFor(caller, path.id, path.teamId, body)),
);

export const answer = () => SingleAnswer(TeamResource);
