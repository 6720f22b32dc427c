import { PathEventWaiver } from '#shared/http/contract/event-parts';
import { route } from '#shared/http/route';
import { deleteWaiverFor } from '#shared/use-cases/events/waivers';

/** 204; a waiver that live tickets use stays (409 `in_use`). */
export const handler = route(
  'DELETE /events/{id}/waivers/{waiverId}',
  { path: PathEventWaiver, status: 204 },
  async ({ path, caller }) => {
    await deleteWaiverFor(caller, path.id, path.waiverId);
    return { status: 204 };
  },
);
