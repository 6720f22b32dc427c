/**
 * The ticket as a caller sees it: the stored record's resource fields in the order answers
 * show them, plus the `_include` expansions asked for. Apart from ticket.ts (what a ticket
 * is and the rules on it, which storage imports too) because shaping an answer is no rule.
 */
import { claimStatus, type CheckInInfo, type Ticket, type TicketInclude, type TicketRecord } from './ticket.ts';

/** The resource's fields in the order answers show them (storage does not keep an order). */
const FIELD_ORDER = [
  'id',
  'eventId',
  'typeId',
  'orderId',
  'customerId',
  'waveTimeId',
  'teamId',
  'barcode',
  'bibNumber',
  'chipNumber',
  'externalMembershipId',
  'processState',
  'transferState',
  'upgradeState',
  'withdrawnState',
  'deleted',
  'price',
  'taxAmount',
  'gratuityAmount',
  'paidUponCheckout',
  'partyMember',
  'partyMemberLastName',
  'emailAddress',
  'partyMemberBirthMonth',
  'partyMemberBirthDay',
  'partyMemberBirthYear',
  'partyMemberTitle',
  'partyMemberCompany',
  'attendeeQuestions',
  'profilePhoto',
  'transferredFrom',
  'transferredTo',
  'purchasedDate',
  'created',
  'updated',
] as const satisfies readonly (keyof Ticket)[];

/** The resource as answered, with the requested expansions. */
export function toTicket(
  record: TicketRecord,
  include: readonly TicketInclude[] = [],
  eventNames: ReadonlyMap<number, string> = new Map(),
): Ticket {
  const { checkIn, accessScans, claim, refund, purchaserContact } = record;
  // Object.fromEntries types its result as a string record. FIELD_ORDER names only Ticket's fields (its
  // `satisfies`), and every field: the answer tests parse each answer with the strict TicketResource.
  const out = Object.fromEntries(FIELD_ORDER.map((field) => [field, record[field] ?? null])) as unknown as Ticket;
  // The stored claim also keeps its token's hash (claim.ts): the answer shows only the resource's fields.
  if (include.includes('change_status')) out.ticketClaim = claim && claimStatus(record);
  if (include.includes('ticket_status')) out.ticketRefund = refund;
  if (include.includes('purchaser')) out.purchaser = purchaserContact;
  if (include.includes('checkInInfo')) {
    const name = (id: number) => eventNames.get(id) ?? '';
    const scans: CheckInInfo['scans'] = [];
    if (checkIn)
      scans.push({
        kind: 'simple',
        eventId: checkIn.eventId,
        eventName: name(checkIn.eventId),
        scannedTimestamp: checkIn.scannedTimestamp,
      });
    for (const scan of Object.values(accessScans).sort((a, b) =>
      a.scannedTimestamp.localeCompare(b.scannedTimestamp),
    )) {
      scans.push({
        kind: 'access_package',
        eventId: scan.eventId,
        eventName: name(scan.eventId),
        scannedTimestamp: scan.scannedTimestamp,
      });
    }
    out.checkInInfo = { scannedTimestamp: checkIn?.scannedTimestamp ?? null, scans };
  }
  return out;
}

/** Events whose names `toTicket` needs for `checkInInfo`. */
export const scannedEvents = (record: TicketRecord): number[] => [
  ...(record.checkIn ? [record.checkIn.eventId] : []),
  ...Object.values(record.accessScans).map((scan) => scan.eventId),
];
