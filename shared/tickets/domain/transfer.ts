import type { AttendeeUpdate } from './attendee-update.ts';
import { newTicketRecord } from './new-ticket.ts';
import { decideStateChange, statesOf } from './ticket-states.ts';
import type { StateRefusal } from './ticket-transitions.ts';
import { PROCESS_STATE, type TicketRecord } from './ticket.ts';

/** Why a ticket cannot be transferred to another type or event (the state machine's answer), or undefined. */
export function transferRefusal(ticket: TicketRecord): StateRefusal | undefined {
  // To the state machine "transferred → transferred" is no change; to the route it would be a second replacement.
  if (ticket.transferState === 'transferred' && !ticket.deleted) return 'transferred';
  const decision = decideStateChange(statesOf(ticket), { transferState: 'transferred' }, ['transfer']);
  return decision.ok ? undefined : decision.reason;
}

/**
 * The ticket that replaces `original` at another type (or event): a new id and barcode,
 * active (pending stays pending), the sale and attendee fields copied, then `attendee`
 * laid over them. Answers, team and wave belong to the event, so they move only within it;
 * bib and chip are the original's and are not carried over; its access-package scans are.
 */
export function replacementTicket(
  original: TicketRecord,
  id: number,
  type: { id: number; eventId: number; grants: number[] },
  attendee: AttendeeUpdate,
  stamp: string,
): TicketRecord {
  const sameEvent = type.eventId === original.eventId;
  return {
    ...newTicketRecord(id, type, stamp),
    orderId: original.orderId,
    price: original.price,
    taxAmount: original.taxAmount,
    // What the buyer paid of the booking fee stays with the ticket: a later cancel of it refunds it too.
    ...(original.bookingFee !== undefined && { bookingFee: original.bookingFee }),
    ...(original.discount !== undefined && { discount: original.discount }),
    ...(original.feeTax !== undefined && { feeTax: original.feeTax }),
    gratuityAmount: original.gratuityAmount,
    paidUponCheckout: original.paidUponCheckout,
    externalMembershipId: original.externalMembershipId,
    partyMember: original.partyMember,
    partyMemberLastName: original.partyMemberLastName,
    emailAddress: original.emailAddress,
    partyMemberBirthMonth: original.partyMemberBirthMonth,
    partyMemberBirthDay: original.partyMemberBirthDay,
    partyMemberBirthYear: original.partyMemberBirthYear,
    partyMemberTitle: original.partyMemberTitle,
    partyMemberCompany: original.partyMemberCompany,
    attendeeQuestions: sameEvent ? original.attendeeQuestions : [],
    teamId: sameEvent ? original.teamId : null,
    // The holder keeps the ticket: it stays on their account and in their order. A wave is the event's.
    customerId: original.customerId,
    waveTimeId: sameEvent ? original.waveTimeId : null,
    profilePhoto: original.profilePhoto,
    processState: original.processState === PROCESS_STATE.pending ? PROCESS_STATE.pending : PROCESS_STATE.active,
    purchaserContact: original.purchaserContact,
    refund: original.refund,
    transferredFrom: original.id,
    // What was scanned stays scanned: without it, a transfer away and back would admit the
    // access package again at an event it already entered (and the statistics keep the admission).
    accessScans: original.accessScans,
    // Bought when the original was: the purchase range still finds the holder's ticket.
    purchasedDate: original.purchasedDate ?? original.created,
    ...attendee,
  };
}
