import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { deleteWebhookFor } from '#shared/webhooks/use-cases/subscriptions';

/** 204; nothing is sent to it afterwards (its pending deliveries are cancelled at their next attempt). */
export const handler = route('DELETE /webhooks/{id}', { path: PathId, status: 204 }, async ({ path, caller }) => {
  await deleteWebhookFor(caller, path.id);
  return { status: 204 };
});
