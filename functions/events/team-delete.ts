import { PathEventTeam } from '#shared/events/contract/event-parts';
import { route } from '#shared/http/route';
import { deleteTeamFor } from '#shared/events/use-cases/teams';

/** 204; a team that live tickets name stays (409 `in_use`). */
export const handler = route(
  'DELETE /events/{id}/teams/{teamId}',
  { path: PathEventTeam, status: 204 },
  async ({ path, caller }) => {
    await deleteTeamFor(caller, path.id, path.teamId);
    return { status: 204 };
  },
);
