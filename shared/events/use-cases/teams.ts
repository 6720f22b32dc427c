import { allocateIds } from '../../data/counters.ts';
import { findTeam } from '../data/events.ts';
import { listTeams, MAX_TEAMS } from '../data/event-admin-reads.ts';
import { teamItem } from '../data/event-items.ts';
import { keys } from '../../data/keys.ts';
import type { Team } from '../domain/event.ts';
import type { TeamBody } from '../domain/event-bodies.ts';
import { Conflict, NotFound } from '../../errors.ts';
import type { Caller } from './event-reads.ts';
import { commitPart, eventAtVersion } from './parts.ts';
import { assertUnused } from '../../lists/tickets.ts';

/**
 * The team routes: a team added, renamed or removed, each one transaction with the event's
 * version and history. Tickets name their team by id and every reader reads its name from
 * the team item, so a rename shows at once wherever it is read. A team that live tickets
 * name stays (409 `in_use` with their count, from the event's kept team counters).
 */

export async function createTeamFor(caller: Caller, eventId: number, body: TeamBody): Promise<Team> {
  const event = await eventAtVersion(caller, eventId, body.version);
  if ((await listTeams(eventId)).length >= MAX_TEAMS)
    throw new Conflict(`An event holds at most ${MAX_TEAMS} teams.`, 'too_many_teams');
  const team: Team = { id: await allocateIds('TEAM'), eventId, name: body.name };
  await commitPart(caller, event, 'team_created', { [`teams.${team.id}`]: { from: null, to: team.name } }, [
    { put: teamItem(team), existing: false },
  ]);
  return team;
}

export async function renameTeamFor(caller: Caller, eventId: number, teamId: number, body: TeamBody): Promise<Team> {
  const event = await eventAtVersion(caller, eventId, body.version);
  const team = await findTeam(eventId, teamId);
  if (!team) throw new NotFound('Team', teamId);
  if (team.name === body.name) return team;
  const renamed = { ...team, name: body.name };
  await commitPart(caller, event, 'team_renamed', { [`teams.${teamId}.name`]: { from: team.name, to: body.name } }, [
    { put: teamItem(renamed), existing: true },
  ]);
  return renamed;
}

/** `DELETE /events/{id}/teams/{teamId}`: only a team no live ticket names. */
export async function deleteTeamFor(caller: Caller, eventId: number, teamId: number): Promise<void> {
  const event = await eventAtVersion(caller, eventId, undefined);
  const team = await findTeam(eventId, teamId);
  if (!team) throw new NotFound('Team', teamId);
  const checks = await assertUnused(eventId, { kind: 'team', id: teamId }, `Team ${teamId}`);
  await commitPart(caller, event, 'team_deleted', { [`teams.${teamId}`]: { from: team.name, to: null } }, [
    { delete: keys.team(eventId, teamId) },
    ...checks,
  ]);
}
