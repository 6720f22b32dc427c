import { DataAnswer } from '#shared/http/answers';
import { RedeliveryRequest, RedeliveryResult } from '#shared/webhooks/contract/webhooks';
import { dataOnly } from '#shared/http/envelopes';
import { PathId } from '#shared/http/path-params';
import { route } from '#shared/http/route';
import { redeliverFor } from '#shared/webhooks/use-cases/redelivery';

/** Makes a time range's undelivered deliveries due again, for the dispatcher: 202 with how many, and `next` while more remain. */
export const handler = route(
  'POST /webhooks/{id}/deliveries/redeliver',
  { path: PathId, body: RedeliveryRequest, status: 202 },
  async ({ path, body, caller }) => ({ ...dataOnly(await redeliverFor(caller, path.id, body)), status: 202 }),
);

export const answer = () => DataAnswer(RedeliveryResult);
