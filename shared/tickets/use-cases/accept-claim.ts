import { claimTokenSpend, findClaimToken } from '../data/claims.ts';
import {
  acceptRefusal,
  claimInfo,
  hashClaimToken,
  liveTokenHash,
  refusalMessage,
  withClaimAccepted,
  type ClaimInfo,
} from '../domain/claim.ts';
import type { Ticket } from '../domain/ticket.ts';
import { toTicket } from '../domain/ticket-view.ts';
import { epochSeconds } from '../../clock.ts';
import { Conflict, ValidationError } from '../../errors.ts';
import { changeTicket } from './change-ticket.ts';

/**
 * The claimed transition: the claimant, signed in to the customer portal, presents the
 * token of the mailed link. One transaction spends the token (conditional delete: single
 * use, so of two presentations racing exactly one wins), closes the claim as `claimed`
 * and moves the ticket to the customer's account; its history names the customer.
 * `POST /my-account/claim` (ours: the spec has no accepting route) and the demo seed call it
 * (the OpenAPI description of POST /my-account/claim). Answers the closed claim and the ticket as it now is.
 */
const MAX_TOKEN_LENGTH = 200;

const badToken = () =>
  new ValidationError('The claim link is invalid, expired or already used.', [
    { path: 'body.token', message: 'invalid, expired or already used' },
  ]);

export async function acceptClaim(token: string, customerId: number): Promise<{ claim: ClaimInfo; ticket: Ticket }> {
  if (!token || token.length > MAX_TOKEN_LENGTH) throw badToken();
  const tokenHash = hashClaimToken(token);
  const found = await findClaimToken(tokenHash);
  if (!found || found.expiresAt <= epochSeconds()) throw badToken();
  return changeTicket(
    found.ticketId,
    { actor: { kind: 'customer', id: customerId }, action: 'claimed', via: [] },
    (ticket, at) => {
      // A token item always belongs to the claim's live token; anything else is a stale link.
      if (liveTokenHash(ticket) !== tokenHash) throw badToken();
      const refusal = acceptRefusal(ticket);
      if (refusal) throw new Conflict(refusalMessage(refusal), refusal);
      const after = withClaimAccepted(ticket, customerId, at);
      return {
        changes: [{ before: ticket, after }],
        extra: [claimTokenSpend(tokenHash, ticket.id, badToken)],
        result: { claim: claimInfo(after), ticket: toTicket(after) },
      };
    },
  );
}
