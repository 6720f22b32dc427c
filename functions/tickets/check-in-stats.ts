import { StatsQuery, CheckInStatsResource } from '#shared/tickets/contract/tickets';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { checkInStatistics } from '#shared/tickets/use-cases/read-tickets';

export const handler = route('GET /tickets/check-in-stats', { query: StatsQuery }, async ({ query, caller }) =>
  dataOnly(await checkInStatistics(query.events, caller.eventScope)),
);

export const answer = () => DataAnswer(CheckInStatsResource);
