import { signWaivers } from '#shared/tickets/use-cases/sign-waivers';
import { SignWaiversBody } from '#shared/tickets/contract/tickets';
import { PathId } from '#shared/http/path-params';
import { dataOnly } from '#shared/http/envelopes';
import { DataAnswer } from '#shared/http/answers';
import { TicketResource } from '#shared/tickets/contract/tickets';
import { route } from '#shared/http/route';

/** Body: its OpenAPI description (`{ waiverIds?, signature: text | image | svg, signerName? }`). */
export const handler = route(
  'POST /tickets/{id}/sign-waivers',
  { path: PathId, body: SignWaiversBody },
  async ({ path, body, caller }) => dataOnly(await signWaivers(path.id, body, caller.id, caller.eventScope)),
);

export const answer = () => DataAnswer(TicketResource);
