import { StatsQuery } from '#shared/http/ticket-input';
import { dataOnly } from '#shared/http/envelopes';
import { route } from '#shared/http/route';
import { checkInStatistics } from '#shared/use-cases/tickets/read-tickets';

export const handler = route('GET /tickets/check-in-stats', { query: StatsQuery }, async ({ query }) => dataOnly(await checkInStatistics(query.events)));
