import { scanPut } from '../data/check-ins.ts';
import { answeringOnce, firstAnswerUpdate, readFirstAnswer } from '../../data/idempotent-requests.ts';
import { decideCheckIn } from '../domain/check-in.ts';
import type { CheckInRequest } from '../domain/check-in-request.ts';
import type { Ticket } from '../../tickets/domain/ticket.ts';
import { toTicket } from '../../tickets/domain/ticket-view.ts';
import { Conflict } from '../../errors.ts';
import { recordCheckIn } from '../../services/metrics.ts';
import { inScope } from '../../identity/use-cases/event-scope.ts';
import { changeTicket, ticketNotFound } from '../../tickets/use-cases/change-ticket.ts';

/**
 * `POST /tickets/{id}/check-in`. One read; the gate's rule (`decideScan`) admits or
 * refuses; an admission is one transaction that moves the ticket (conditional on its
 * version, so two scanners racing admit it once), records the scan and the history
 * entry, moves the statistics and sets the first answer on the key's request record. A refusal's refused-scan
 * record is written by the same writer (changeTicket), then it answers 409 with its `reason`.
 */
export async function checkIn(id: number, request: CheckInRequest): Promise<Ticket> {
  const { adminId, idempotency: answerScope, eventScope } = request;
  const actor = eventScope
    ? { kind: 'admin' as const, id: adminId, eventScope }
    : { kind: 'admin' as const, id: adminId };
  // Set by the attempt that commits (changeTicket re-runs the decision when a concurrent writer wins).
  let admitted = false;
  return answeringOnce(answerScope, id, async () => {
    const ticket = await changeTicket(
      id,
      { actor, action: 'check_in', via: ['check_in'], scopeRule: 'granted' },
      async (record, at) => {
        admitted = false;
        if (record.deleted) throw ticketNotFound(id);
        const scan = { eventId: request.event ?? record.eventId, scannedTimestamp: at, adminId };
        // A scan at an event outside the scope is a 404 too, and records no refused scan.
        if (!inScope(eventScope, scan.eventId)) throw ticketNotFound(id);
        const outcome = decideCheckIn(record, scan);
        if (!outcome.admitted) {
          // A retry of a request that was admitted answers what it answered.
          const first = answerScope && (await readFirstAnswer<Ticket>(answerScope, id));
          if (first) return { changes: [], result: first };
          recordCheckIn(outcome);
          // The refused scan's record is written by changeTicket's one writer; then the 409.
          const refusal = new Conflict(
            `Ticket ${id} cannot be admitted: ${outcome.reason.replaceAll('_', ' ')}.`,
            outcome.reason,
            { ...(outcome.firstScan ? { firstScannedTimestamp: outcome.firstScan } : {}) },
          );
          return { changes: [], extra: [scanPut(id, outcome.kept)], result: toTicket(record), refusal };
        }
        const answer = toTicket(outcome.after);
        const extra = [scanPut(id, outcome.kept)];
        if (answerScope) extra.push(firstAnswerUpdate(answerScope, id, answer));
        admitted = true;
        return { changes: [{ before: record, after: outcome.after }], extra, action: outcome.action, result: answer };
      },
    );
    // Counted once committed: a retry answered from the stored answer admitted nobody new.
    if (admitted) recordCheckIn({ admitted: true });
    return ticket;
  });
}
