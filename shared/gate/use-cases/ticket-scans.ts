import { scanPut } from '../data/check-ins.ts';
import { MAX_TRANSACTION_ITEMS, TransactionConflicts } from '../../data/client.ts';
import {
  GateScanTaken,
  gateScanPut,
  readGateScans,
  recordGateScan,
  type ScanUploader,
  type StoredGateScan,
} from '../data/gate-scans.ts';
import { commitTicketChanges, type ExtraAction } from '../../lists/writes.ts';
import { decideTicketScans, type ScanVerdict, type TicketScansPlan } from '../domain/gate-batch.ts';
import type { GateScan, ScanResult } from '../domain/gate.ts';
import type { TicketRecord } from '../../tickets/domain/ticket.ts';
import { NotFound } from '../../errors.ts';
import { recordCheckIn } from '../../services/metrics.ts';
import { ticketInScope, type EventScope } from '../../identity/use-cases/event-scope.ts';
import { changeTicket } from '../../tickets/use-cases/change-ticket.ts';

/**
 * How one ticket's scans of an upload are written (upload-scans.ts decides when, within its
 * budget): the admission, if any, is the check-in route's one transaction through
 * `changeTicket`, holding the records of the first HEAD_SCANS scans; the rest of the
 * ticket's records (refusals of repeated scans) follow in transactions of up to 100 actions
 * sent together. Each transaction is one round trip of the lane that writes it.
 */

/** Scans whose records ride in the admission's transaction (2 actions each beside the check-in's own, at most 40). */
const HEAD_SCANS = 10;

/** What the lane writing a ticket may still spend; false when a round trip would pass the upload's budget. */
export interface Lane {
  spend(rounds: number): boolean;
}

/** Ran out of budget in the middle of a ticket: its unanswered scans are `resend`. */
class OutOfBudget extends Error {}

export interface TicketScans {
  ticketId: number;
  /** As read with the upload's inputs (strongly consistent); undefined when the ticket is gone. */
  record: TicketRecord | undefined;
  scans: GateScan[];
  by: ScanUploader;
  eventScope: EventScope;
}

export type Answer = (scan: GateScan, result: ScanResult) => void;

/** A resent scan answers its first result; a client id reused for another scan is refused. */
export function replayed(eventId: number, scan: GateScan, stored: StoredGateScan): ScanResult {
  if (stored.eventId === eventId && stored.barcode === scan.barcode) return stored.result;
  return {
    id: scan.id,
    result: 'invalid',
    message: 'This scan id was already used for another scan: each scan needs its own id.',
  };
}

/** Answers the scans a concurrent upload recorded first (as it recorded them), and `resend` for the rest. */
async function afterTaken(lane: Lane, scans: readonly GateScan[], by: ScanUploader, answer: Answer) {
  const recorded = lane.spend(1)
    ? await readGateScans(
        by.scope,
        scans.map((scan) => scan.id),
      )
    : new Map();
  for (const scan of scans) {
    const stored = recorded.get(scan.id);
    answer(scan, stored ? replayed(by.eventId, scan, stored) : resend(scan));
  }
}

export const resend = (scan: GateScan): ScanResult => ({
  id: scan.id,
  result: 'resend',
  message: "Not reached within this upload's time budget; nothing was recorded: send this scan again.",
});

/** A scan that found no ticket (or none the caller may read): its record alone, one Put (one round trip). */
export async function unknownBarcode(lane: Lane, scan: GateScan, by: ScanUploader, answer: Answer) {
  const result: ScanResult = { id: scan.id, result: 'unknown_barcode' };
  if (!lane.spend(1)) return answer(scan, resend(scan));
  if (await recordGateScan(scan, by, result)) return answer(scan, result);
  await afterTaken(lane, [scan], by, answer);
}

/** The round trips a ticket's scans take when nothing races them: its transaction, and one for the records past it. */
export const ticketRounds = (scans: number) => (scans > HEAD_SCANS ? 2 : 1);

const recordsOf = (verdict: ScanVerdict, ticketId: number, by: ScanUploader): ExtraAction[] => [
  ...(verdict.kept ? [scanPut(ticketId, verdict.kept)] : []),
  gateScanPut(verdict.scan, by, verdict.result),
];

/** Decides and writes one ticket's scans, answering each; the caller checked that `ticketRounds` fit. */
export async function scanTicket(lane: Lane, ticket: TicketScans, answer: Answer): Promise<void> {
  const { ticketId, scans, by, eventScope } = ticket;
  // Their records alone, in transactions sent together: one round trip however many scans.
  const unknown = (scan: GateScan): ScanVerdict => ({ scan, result: { id: scan.id, result: 'unknown_barcode' } });
  const gone = () => writeTail(lane, ticketId, scans.map(unknown), by, answer);
  if (!ticket.record || !ticketInScope(eventScope, ticket.record, 'granted')) return gone();
  const resendAll = (list: readonly GateScan[]) => {
    for (const scan of list) answer(scan, resend(scan));
  };
  if (!lane.spend(1)) return resendAll(scans);
  let plan: TicketScansPlan | undefined;
  let attempts = 0;
  try {
    plan = await changeTicket(
      ticketId,
      {
        actor: eventScope ? { kind: 'admin', id: by.adminId, eventScope } : { kind: 'admin', id: by.adminId },
        action: 'check_in',
        via: ['check_in'],
        scopeRule: 'granted',
      },
      (record, at) => {
        // A concurrent change made it read again: the read and the next transaction are two more round trips.
        if (attempts++ > 0 && !lane.spend(2)) throw new OutOfBudget();
        const decided = decideTicketScans(
          {
            record,
            eventId: by.eventId,
            adminId: by.adminId,
            at,
            inScope: ticketInScope(eventScope, record, 'granted'),
          },
          scans,
        );
        const admittedAt = decided.verdicts.findIndex((verdict) => verdict.result.result === 'admitted');
        const head = decided.verdicts.slice(0, Math.max(HEAD_SCANS, admittedAt + 1));
        return {
          changes: decided.admission ? [{ before: record, after: decided.admission.after }] : [],
          extra: head.flatMap((verdict) => recordsOf(verdict, ticketId, by)),
          ...(decided.admission ? { action: decided.admission.action } : {}),
          result: { ...decided, head: head.length },
        };
      },
      ticket.record,
    );
  } catch (error) {
    if (error instanceof OutOfBudget) return resendAll(scans);
    if (error instanceof GateScanTaken) return afterTaken(lane, scans, by, answer);
    // Deleted, or moved outside the scope, since the upload read it.
    if (error instanceof NotFound) return gone();
    throw error;
  }
  const { verdicts, invalid, head } = plan as TicketScansPlan & { head: number };
  for (const { scan, result } of invalid) answer(scan, result);
  for (const verdict of verdicts.slice(0, head)) settle(verdict, answer);
  await writeTail(lane, ticketId, verdicts.slice(head), by, answer);
}

function settle(verdict: ScanVerdict, answer: Answer) {
  const { result } = verdict;
  if (result.result === 'admitted') recordCheckIn({ admitted: true });
  else if (result.result !== 'unknown_barcode' && result.result !== 'invalid' && result.result !== 'resend')
    recordCheckIn({ admitted: false, reason: result.result });
  answer(verdict.scan, result);
}

/** The records past the admission's transaction: transactions of up to 100 actions, sent together (one round trip). */
async function writeTail(lane: Lane, ticketId: number, tail: ScanVerdict[], by: ScanUploader, answer: Answer) {
  if (!tail.length) return;
  const chunks: ScanVerdict[][] = [[]];
  let actions = 0;
  for (const verdict of tail) {
    const size = verdict.kept ? 2 : 1;
    if (actions + size > MAX_TRANSACTION_ITEMS) [actions] = [0, chunks.push([])];
    chunks.at(-1)!.push(verdict);
    actions += size;
  }
  const resendAll = (verdicts: ScanVerdict[]) => {
    for (const verdict of verdicts) answer(verdict.scan, resend(verdict.scan));
  };
  if (!lane.spend(1)) return resendAll(tail);
  const written = await Promise.allSettled(
    chunks.map((chunk) =>
      commitTicketChanges(
        [],
        chunk.flatMap((verdict) => recordsOf(verdict, ticketId, by)),
      ),
    ),
  );
  const taken: GateScan[] = [];
  for (const [i, outcome] of written.entries()) {
    const chunk = chunks[i]!;
    if (outcome.status === 'fulfilled') for (const verdict of chunk) settle(verdict, answer);
    else if (outcome.reason instanceof GateScanTaken) taken.push(...chunk.map((verdict) => verdict.scan));
    // A hot item still colliding after transactWrite's retries: nothing of the chunk was written; the device resends.
    else if (outcome.reason instanceof TransactionConflicts) resendAll(chunk);
    else throw outcome.reason;
  }
  if (taken.length) await afterTaken(lane, taken, by, answer);
}
