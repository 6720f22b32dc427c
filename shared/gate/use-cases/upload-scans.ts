import { now } from '../../clock.ts';
import { readUploadInputs, scopeKey, type ScanUploader } from '../data/gate-scans.ts';
import { readTicketRecords } from '../../tickets/data/ticket-records.ts';
import { scanTimeProblem, type GateScan, type ScanResult } from '../domain/gate.ts';
import { NotFound } from '../../errors.ts';
import { assertEventsInScope, ticketInScope, type EventScope } from '../../identity/use-cases/event-scope.ts';
import { replayed, resend, scanTicket, ticketRounds, unknownBarcode, type Answer, type Lane } from './ticket-scans.ts';

export interface ScanUpload {
  eventId: number;
  scans: GateScan[];
  adminId: number;
  /** The caller's events (undefined: all), passed on explicitly: it keys the scan records and rides on the change's actor. */
  eventScope: EventScope;
}

/**
 * The upload's budget: an answer within half the function's 10 s timeout
 * (infra/route-function.ts) at AWS's latencies (a read or a transaction 20–35 ms), for any
 * batch the route accepts. Counted in sequential DynamoDB round trips: two rounds of reads
 * (the inputs, then the tickets' records: BatchGetItems sent together), then `lanes`
 * tickets are written at once, each lane making at most `laneRounds` round trips, so
 * 2 + 100 at 35 ms is 3.6 s. A ticket costs 1 (its transaction) and 1 more when its
 * repeated scans' records spill into further transactions (ticket-scans.ts), 2 per re-read
 * after a concurrent change; an unknown barcode 1 (its record's Put). So 500 distinct
 * tickets take 63 rounds a lane and 500 scans of one barcode 2. `deadlineMs` is the
 * backstop for what rounds do not count (transactWrite's retries of a hot counter,
 * throttling): no ticket is started past it. What the budget cannot reach answers
 * `resend`, recording nothing: the device sends it again.
 */
export interface UploadBudget {
  lanes: number;
  laneRounds: number;
  deadlineMs: number;
}
export const UPLOAD_BUDGET: UploadBudget = { lanes: 8, laneRounds: 100, deadlineMs: 4_000 };

type Task = { rounds: number; run: (lane: Lane) => Promise<void> };

/**
 * `POST /scans` (README "The gate offline"). One round of BatchGetItems reads the event,
 * every barcode's ticket id and every scan already recorded in the caller's scope, a second
 * the tickets' records; then each ticket's scans are decided at once, in upload order
 * (gate/domain/gate-batch.ts), and written through `changeTicket`, so an admission is the
 * check-in route's one transaction (ticket, history, scan record, statistics; webhooks
 * follow from the stream) plus the scans' records by client id. The results come back in
 * upload order, one per scan.
 */
export async function uploadScans(upload: ScanUpload, budget = UPLOAD_BUDGET): Promise<ScanResult[]> {
  const { eventId, scans, eventScope } = upload;
  const started = now().getTime();
  // An event outside the scope answers what an unknown one does.
  assertEventsInScope(eventScope, [eventId]);
  const scope = scopeKey(eventScope);
  const inputs = await readUploadInputs(
    eventId,
    scope,
    scans.map((scan) => scan.barcode),
    scans.map((scan) => scan.id),
  );
  if (!inputs.eventExists) throw new NotFound('Event', eventId);
  const by: ScanUploader = { eventId, adminId: upload.adminId, scope, uploadedAt: now().toISOString() };
  const answers = new Map<string, ScanResult>();
  const answer: Answer = (scan, result) => answers.set(scan.id, result);
  const byTicket = new Map<number, GateScan[]>();
  const unknown: GateScan[] = [];
  for (const scan of scans) {
    const stored = inputs.recorded.get(scan.id);
    if (stored) answer(scan, replayed(eventId, scan, stored));
    else {
      const problem = scanTimeProblem(scan.scannedAt, now());
      // Nothing is kept of an invalid scan: the device may correct its clock and send it again.
      if (problem) answer(scan, { id: scan.id, result: 'invalid', message: problem });
      else {
        const ticketId = inputs.ticketOf.get(scan.barcode);
        if (ticketId === undefined) unknown.push(scan);
        else byTicket.set(ticketId, [...(byTicket.get(ticketId) ?? []), scan]);
      }
    }
  }
  const records = await readTicketRecords([...byTicket.keys()]);
  const tasks: Task[] = [];
  for (const [ticketId, ticketScans] of byTicket) {
    const record = records.get(ticketId);
    // A ticket the caller may not read answers as a barcode nobody holds, and costs what one does.
    if (record && !ticketInScope(eventScope, record, 'granted')) unknown.push(...ticketScans);
    else
      tasks.push({
        rounds: ticketRounds(ticketScans.length),
        run: (lane) => scanTicket(lane, { ticketId, record, scans: ticketScans, by, eventScope }, answer),
      });
  }
  for (const scan of unknown) tasks.push({ rounds: 1, run: (lane) => unknownBarcode(lane, scan, by, answer) });
  await runLanes(tasks, budget, started);
  return scans.map((scan) => answers.get(scan.id) ?? resend(scan));
}

/** Runs the tasks `lanes` at a time, each lane within its rounds and no task started past the deadline. */
async function runLanes(tasks: Task[], budget: UploadBudget, started: number): Promise<void> {
  const queue = [...tasks];
  const run = async () => {
    let left = budget.laneRounds;
    const lane: Lane = {
      spend: (rounds) => {
        if (left < rounds) return false;
        left -= rounds;
        return true;
      },
    };
    for (;;) {
      if (now().getTime() - started > budget.deadlineMs) return;
      const at = queue.findIndex((task) => task.rounds <= left);
      if (at < 0) return;
      const [task] = queue.splice(at, 1);
      await task!.run(lane);
    }
  };
  await Promise.all(Array.from({ length: Math.min(budget.lanes, queue.length) }, run));
}
