import * as z from '../../schema.ts';
import { PROCESS_STATE, type Scan, type TicketRecord } from '../../tickets/domain/ticket.ts';

/**
 * The gate's one decision: whether scanning a ticket at an event admits it, as which kind
 * of scan, or why not (a reason code for every refusal). The check-in route, its
 * idempotent retries and the statistics all go through it; the ticket state machine
 * (`ticket-states.ts`) then allows the move it implies (active → checked in).
 */
export const REFUSAL_REASONS = [
  'already_checked_in',
  'cancelled',
  'transferred',
  'withdrawn',
  'not_valid_for_event',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export type ScanDecision =
  | { admitted: true; kind: 'simple' | 'access_package' }
  | { admitted: false; reason: RefusalReason; firstScan?: string };

/** Whether scanning the ticket at `eventId` admits it, and as which kind of scan. Deleted tickets never get here (404). */
export function decideScan(ticket: TicketRecord, eventId: number): ScanDecision {
  if (ticket.processState === PROCESS_STATE.cancelled) return { admitted: false, reason: 'cancelled' };
  if (ticket.transferState === 'transferred') return { admitted: false, reason: 'transferred' };
  if (ticket.withdrawnState === 'withdrawn') return { admitted: false, reason: 'withdrawn' };
  if (eventId === ticket.eventId) {
    if (ticket.processState === PROCESS_STATE.checkedIn) {
      return {
        admitted: false,
        reason: 'already_checked_in',
        firstScan: ticket.checkIn?.scannedTimestamp ?? ticket.updated,
      };
    }
    if (ticket.processState !== PROCESS_STATE.active) return { admitted: false, reason: 'not_valid_for_event' };
    // An access pass transferred to a type of an event it already entered carries that scan
    // (transfer.ts): the holder was admitted here once, so the own-event scan is refused too.
    const entered = ticket.accessScans[String(eventId)];
    if (entered) return { admitted: false, reason: 'already_checked_in', firstScan: entered.scannedTimestamp };
    return { admitted: true, kind: 'simple' };
  }
  if (!ticket.accessEvents.includes(eventId)) return { admitted: false, reason: 'not_valid_for_event' };
  const earlier = ticket.accessScans[String(eventId)];
  if (earlier) return { admitted: false, reason: 'already_checked_in', firstScan: earlier.scannedTimestamp };
  if (ticket.processState === PROCESS_STATE.pending) return { admitted: false, reason: 'not_valid_for_event' };
  return { admitted: true, kind: 'access_package' };
}

/** The ticket after an admitted scan. */
export function applyScan(ticket: TicketRecord, kind: 'simple' | 'access_package', scan: Scan): TicketRecord {
  if (kind === 'simple')
    return { ...ticket, processState: PROCESS_STATE.checkedIn, checkIn: scan, updated: scan.scannedTimestamp };
  return {
    ...ticket,
    accessScans: { ...ticket.accessScans, [String(scan.eventId)]: scan },
    updated: scan.scannedTimestamp,
  };
}

/** What a check-in writes: the admission (the ticket after it and its record), or the refusal and its record. */
export type CheckInOutcome =
  | { admitted: true; after: TicketRecord; action: 'check_in' | 'access_scan'; kept: Scan & { outcome: 'admitted' } }
  | { admitted: false; reason: RefusalReason; firstScan?: string; kept: Scan & { outcome: RefusalReason } };

/**
 * `POST /tickets/{id}/check-in`'s decision, pure: scanning `ticket` with `scan` admits it
 * (what to write) or refuses it (why, and the refused scan's record to keep).
 */
export function decideCheckIn(ticket: TicketRecord, scan: Scan): CheckInOutcome {
  const decision = decideScan(ticket, scan.eventId);
  if (!decision.admitted)
    return {
      admitted: false,
      reason: decision.reason,
      ...(decision.firstScan ? { firstScan: decision.firstScan } : {}),
      kept: { ...scan, outcome: decision.reason },
    };
  return {
    admitted: true,
    after: applyScan(ticket, decision.kind, scan),
    action: decision.kind === 'simple' ? 'check_in' : 'access_scan',
    kept: { ...scan, outcome: 'admitted' },
  };
}

/**
 * The spec's check-in statistics of a set of events (kept counts, data/ticket-stats.ts): `GET /tickets/check-in-stats`,
 * the requested events (each once), sold and checked-in tickets.
 */
export const CheckInStatsResource = z.lazy(() =>
  z.strictObject({
    eventIds: z.array(z.int()),
    soldTickets: z.int(),
    checkedInTickets: z.int(),
  }),
);
export type CheckInStats = z.output<typeof CheckInStatsResource>;
