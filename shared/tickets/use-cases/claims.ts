import { claimTokenDelete, claimTokenPut } from '../data/claims.ts';
import { requireSlots } from '../../data/rate-limits.ts';
import {
  claimantRefusal,
  claimInfo,
  liveTokenHash,
  openRefusal,
  refusalMessage,
  withClaimant,
  withOpenClaim,
  type Claimant,
  type ClaimInfo,
  type ClaimRefusal,
} from '../domain/claim.ts';
import type { Actor } from '../domain/ticket-history.ts';
import { Conflict } from '../../errors.ts';
import { changeTicket } from './change-ticket.ts';
import { newClaimToken, sendClaimMail } from './claim-mail.ts';

/**
 * Opening a claim and changing its claimant (the `ticket` tag in the OpenAPI). Each is one changeTicket
 * transaction (ticket with its claim, history entry, token items), then the mail. A claim
 * moves no state, so the state machine is asked about nothing (`via: []`).
 */
const refuse = (reason: ClaimRefusal): never => {
  throw new Conflict(refusalMessage(reason), reason);
};

/**
 * Each claim or claimant request mails an address the caller chose: at most this many per
 * ticket and per staff member in any 24 hours, taken before anything is written (429 with
 * Retry-After; a refusal changes nothing else).
 */
export const CLAIM_MAILS = { perTicket: 5, perStaff: 100, windowSeconds: 24 * 60 * 60 } as const;

function limitClaimMails(ticketId: number, actor: Actor): Promise<void> {
  const { perTicket, perStaff, windowSeconds } = CLAIM_MAILS;
  const sender = actor.kind === 'system' ? 'system' : `${actor.kind}#${actor.id}`;
  return requireSlots(
    [
      { name: 'CLAIM_MAIL_TICKET', subject: String(ticketId), limit: perTicket, windowSeconds },
      { name: 'CLAIM_MAIL_STAFF', subject: sender, limit: perStaff, windowSeconds },
    ],
    ({ name, limit }) =>
      `At most ${limit} claim mails per ${name === 'CLAIM_MAIL_TICKET' ? 'ticket' : 'staff member'} in 24 hours; try again later.`,
  );
}

/** Addresses are lower-cased and trimmed everywhere. */
const normal = (claimant: Claimant): Claimant => ({
  ...claimant,
  claimantEmail: claimant.claimantEmail.trim().toLowerCase(),
});

/** `POST /ticket/{ticketId}/claim`: opens a claim and mails its link to the claimant. */
export async function openClaim(ticketId: number, input: Claimant, actor: Actor): Promise<ClaimInfo> {
  await limitClaimMails(ticketId, actor);
  const { info, token } = await commitOpenClaim(ticketId, input, actor);
  await sendClaimMail(info.claimantEmail!, token, ticketId);
  return info;
}

/** The claim's transaction without the mail, answering the link's token (openClaim; the demo seed, which accepts one). */
export async function commitOpenClaim(
  ticketId: number,
  input: Claimant,
  actor: Actor,
): Promise<{ info: ClaimInfo; token: string }> {
  const claimant = normal(input);
  return changeTicket(ticketId, { actor, action: 'claim', via: [] }, (ticket, at) => {
    const refusal = openRefusal(ticket);
    if (refusal) refuse(refusal);
    const { token, tokenHash } = newClaimToken();
    const after = withOpenClaim(ticket, claimant, tokenHash, at);
    // A cancelled claim replaced by this one may still have a live token: void it with the claim.
    const old = liveTokenHash(ticket);
    return {
      changes: [{ before: ticket, after }],
      extra: [...(old ? [claimTokenDelete(old)] : []), claimTokenPut(tokenHash, ticketId, claimant.claimantEmail)],
      result: { info: claimInfo(after), token },
    };
  });
}

/**
 * `POST /ticket/{ticketId}/claimant {claimantEmail, claimantuserId?}`: the open claim goes
 * to another address (or the same one: a fresh link). The old link is voided in the same
 * transaction and the new address gets a new one. `claimantUserId` is kept unless given.
 */
export async function changeClaimant(
  ticketId: number,
  input: { claimantEmail: string; claimantUserId?: string },
  actor: Actor,
): Promise<ClaimInfo> {
  await limitClaimMails(ticketId, actor);
  const claimantEmail = input.claimantEmail.trim().toLowerCase();
  const { info, token } = await changeTicket(ticketId, { actor, action: 'claimant', via: [] }, (ticket, at) => {
    const refusal = claimantRefusal(ticket);
    if (refusal) refuse(refusal);
    const { token, tokenHash } = newClaimToken();
    const claimantUserId = input.claimantUserId ?? ticket.claim!.claimantUserId ?? '';
    const after = withClaimant(ticket, { claimantEmail, claimantUserId }, tokenHash, at);
    const old = liveTokenHash(ticket);
    return {
      changes: [{ before: ticket, after }],
      extra: [...(old ? [claimTokenDelete(old)] : []), claimTokenPut(tokenHash, ticketId, claimantEmail)],
      result: { info: claimInfo(after), token },
    };
  });
  await sendClaimMail(claimantEmail, token, ticketId);
  return info;
}
