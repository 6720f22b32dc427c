import { now } from '../../clock.ts';
import { allocateIds } from '../../data/counters.ts';
import { findTeam } from '../../data/events.ts';
import { listTeams, MAX_TEAMS } from '../../data/event-admin-reads.ts';
import { commitTeamChange, type HistoryAction } from '../../data/event-admin-writes.ts';
import type { Event, Team } from '../../domain/event.ts';
import type { FieldChanges } from '../../domain/event-admin.ts';
import type { TeamBody } from '../../domain/event-input.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { assertVersion } from './edit-events.ts';
import { eventFor, type Caller } from './event-reads.ts';

/**
 * The team routes: a team added or renamed, each one transaction with the event's version
 * and history. Tickets name their team by id and every reader reads its name from the team
 * item, so a rename shows at once wherever it is read. Teams are not removed here (a
 * ticket's team stays a team of its event).
 */

async function commit(
  caller: Caller,
  event: Event,
  action: HistoryAction,
  changes: FieldChanges,
  team: Team,
  existing: boolean,
) {
  const at = now().toISOString();
  const after: Event = { ...event, version: (event.version ?? 1) + 1, updated: at, updatedBy: caller.id };
  await commitTeamChange({ before: event, after, changes, action, by: caller.id, at }, team, existing);
  return team;
}

export async function createTeamFor(caller: Caller, eventId: number, body: TeamBody): Promise<Team> {
  const event = await eventFor(caller, eventId);
  assertVersion(event.version, body.version, eventId);
  if ((await listTeams(eventId)).length >= MAX_TEAMS)
    throw new Conflict(`An event holds at most ${MAX_TEAMS} teams.`, 'too_many_teams');
  const team: Team = { id: await allocateIds('TEAM'), eventId, name: body.name };
  return commit(caller, event, 'team_created', { [`teams.${team.id}`]: { from: null, to: team.name } }, team, false);
}

export async function renameTeamFor(caller: Caller, eventId: number, teamId: number, body: TeamBody): Promise<Team> {
  const event = await eventFor(caller, eventId);
  assertVersion(event.version, body.version, eventId);
  const team = await findTeam(eventId, teamId);
  if (!team) throw new NotFound('Team', teamId);
  if (team.name === body.name) return team;
  const renamed = { ...team, name: body.name };
  return commit(
    caller,
    event,
    'team_renamed',
    { [`teams.${teamId}.name`]: { from: team.name, to: body.name } },
    renamed,
    true,
  );
}
