import { StatsQuery, CheckInStatsResource } from '#shared/http/contract/tickets';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { route } from '#shared/http/route';
import { checkInStatistics } from '#shared/use-cases/tickets/read-tickets';

export const handler = route('GET /tickets/check-in-stats', { query: StatsQuery }, async ({ query, caller }) =>
  dataOnly(await checkInStatistics(query.events, caller.eventScope)),
);

export const answer = () => DataAnswer(CheckInStatsResource);
