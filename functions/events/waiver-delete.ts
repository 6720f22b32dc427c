import { PathEventWaiver } from '#shared/events/contract/event-parts';
import { route } from '#shared/http/route';
import { deleteWaiverFor } from '#shared/events/use-cases/waivers';

/** 204; a waiver that live tickets use stays (409 `in_use`). */
export const handler = route(
  'DELETE /events/{id}/waivers/{waiverId}',
  { path: PathEventWaiver, status: 204 },
  async ({ path, caller }) => {
    await deleteWaiverFor(caller, path.id, path.waiverId);
    return { status: 204 };
  },
);
