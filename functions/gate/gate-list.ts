import { PathEventId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { GateListQuery } from '#shared/gate/contract/gate';
import { GateListAnswer } from '#shared/gate/contract/gate';
import { gateList } from '#shared/gate/use-cases/gate-list';

/** The event's admission list for a device to take offline, walked by `next`, refreshed by `changedSince`. */
export const handler = route(
  'GET /gate-lists/{eventId}',
  { path: PathEventId, query: GateListQuery },
  async ({ path, query, caller }) => ({
    body: await gateList(path.eventId, {
      changedSince: query.changedSince,
      cursor: query._cursor,
      limit: query._limit,
      eventScope: caller.eventScope,
    }),
  }),
);

export const answer = () => GateListAnswer;
