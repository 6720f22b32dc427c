import { readCheckInStats } from '#shared/data/ticket-stats';
import { StatsQuery } from '#shared/http/ticket-input';
import { dataOnly } from '#shared/http/envelopes';
import { route } from '#shared/http/route';

export const handler = route('GET /tickets/check-in-stats', { query: StatsQuery }, async ({ query }) =>
  dataOnly(await readCheckInStats(query.events)),
);
