import { now } from '../../clock.ts';
import { assertTicketInScope, type EventScope } from '../../identity/use-cases/event-scope.ts';
import { getTicket } from './read-tickets.ts';
import { recordSignatures, requiredWaivers, ticketSignatures } from '../../events/data/waivers.ts';
import { deleteObjectQuietly, newObjectKey, putObject } from '../services/photos.ts';
import type { Ticket } from '../domain/ticket.ts';
import { prepareSignature, waiversToSign, type SignWaiversBody } from '../../events/domain/waivers.ts';

/**
 * `POST /tickets/{id}/sign-waivers`: one signature for the named waivers (or all unsigned
 * ones). The signature is checked first (400/413 before any I/O), stored in the bucket,
 * and only then linked to each unsigned waiver's current version. Nothing left to sign
 * stores nothing; waivers signed by a concurrent request keep their first signature.
 */
export async function signWaivers(
  ticketId: number,
  body: SignWaiversBody,
  signedBy: number,
  scope?: EventScope,
): Promise<Ticket> {
  const signature = prepareSignature(body.signature);
  const [ticket, signatures] = await Promise.all([getTicket(ticketId), ticketSignatures(ticketId)]);
  // A change: the ticket's own event must be in scope (event-scope.ts), checked before anything is stored.
  assertTicketInScope(scope, ticket, 'own');
  const required = await requiredWaivers(ticket.eventId, ticket.typeId);
  const toSign = waiversToSign(required, signatures, body.waiverIds);
  if (toSign.length === 0) return ticket;

  const key = newObjectKey(`signatures/tickets/${ticketId}`, signature.extension);
  await putObject(key, signature.bytes, signature.contentType, {
    'ticket-id': String(ticketId),
    'signature-type': signature.type,
  });
  const recorded = await recordSignatures(ticketId, toSign, {
    signatureKey: key,
    signatureType: signature.type,
    signerName: body.signerName ?? null,
    signedBy,
    signedAt: now().toISOString(),
  });
  if (recorded.length === 0) await deleteObjectQuietly(key, 'every waiver was signed by a concurrent request');
  return ticket;
}
