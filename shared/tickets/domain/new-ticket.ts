import { randomBytes } from 'node:crypto';
import { PROCESS_STATE, type TicketRecord } from './ticket.ts';

/** A barcode nobody can guess from another: 72 random bits, upper-case base64url. */
export const newBarcode = (): string => randomBytes(9).toString('base64url').toUpperCase();

/** A fresh, active ticket of a type, before the sale's own fields are laid over it. */
export function newTicketRecord(
  id: number,
  type: { id: number; eventId: number; grants: number[] },
  stamp: string,
): TicketRecord {
  return {
    id,
    eventId: type.eventId,
    typeId: type.id,
    orderId: null,
    customerId: null,
    waveTimeId: null,
    teamId: null,
    barcode: newBarcode(),
    bibNumber: null,
    chipNumber: null,
    externalMembershipId: null,
    price: 0,
    taxAmount: 0,
    gratuityAmount: 0,
    paidUponCheckout: 0,
    partyMember: '',
    partyMemberLastName: '',
    emailAddress: null,
    partyMemberBirthMonth: null,
    partyMemberBirthDay: null,
    partyMemberBirthYear: null,
    partyMemberTitle: null,
    partyMemberCompany: null,
    attendeeQuestions: [],
    processState: PROCESS_STATE.active,
    transferState: 'none',
    upgradeState: 'none',
    withdrawnState: 'none',
    deleted: 0,
    profilePhoto: null,
    transferredFrom: null,
    transferredTo: null,
    purchasedDate: stamp,
    created: stamp,
    updated: stamp,
    // An access package admits to the events its type grants: copied so a scan needs no second read.
    accessEvents: type.grants,
    checkIn: null,
    accessScans: {},
    claim: null,
    refund: { status: 'none', amount: 0 },
    purchaserContact: null,
    version: 0,
  };
}
