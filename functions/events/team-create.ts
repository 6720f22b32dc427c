import { SingleAnswer } from '#shared/http/answers';
import { TeamBody, TeamResource } from '#shared/events/contract/event-parts';
import { single } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { createTeamFor } from '#shared/events/use-cases/teams';

/** 201 with the team. */
export const handler = route(
  'POST /events/{id}/teams',
  { path: PathId, body: TeamBody, status: 201 },
  async ({ path, body, caller }) => ({ ...single(await createTeamFor(caller, path.id, body)), status: 201 }),
);

export const answer = () => SingleAnswer(TeamResource);
