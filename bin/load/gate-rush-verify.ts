import { API_PREFIX } from '#shared/api-prefix';
import { listScans } from '#shared/gate/data/check-ins';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import type { Prepared, RushResult } from './gate-rush-core.ts';

/** What a gate rush (gate-rush-core.ts) must leave true: every invariant, read back from the table and the API. */

async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let start = 0; start < items.length; start += size)
    out.push(...(await Promise.all(items.slice(start, start + size).map(work))));
  return out;
}

/**
 * What must hold after the rush, whatever the timings: every failure is a sentence.
 * - every scanner answer is 200 (distinct tickets: nothing to refuse, no error);
 * - the re-scanned ticket was admitted exactly once, every other re-scan is a 409 `already_checked_in`;
 * - every ticket sent holds exactly one admitted scan record and is checked in; no unsent ticket is;
 * - the statistics say checked-in = distinct admitted tickets and sold = the event's tickets.
 */
export async function verifyGateRush(
  baseUrl: string,
  prepared: Prepared,
  result: RushResult,
  /** Tickets the offline scanners admitted (gate-offline.ts), checked there. */
  offlineAdmitted = 0,
): Promise<string[]> {
  const failures: string[] = [];
  const statuses = (samples: RushResult['scans']) => {
    const counts = new Map<string, number>();
    for (const s of samples)
      counts.set(
        `${s.status}${s.reason ? ` ${s.reason}` : ''}`,
        (counts.get(`${s.status}${s.reason ? ` ${s.reason}` : ''}`) ?? 0) + 1,
      );
    return [...counts].map(([key, n]) => `${n}× ${key}`).join(', ');
  };
  if (result.scans.some((s) => s.status !== 200))
    failures.push(`scanner answers other than 200: ${statuses(result.scans.filter((s) => s.status !== 200))}`);

  const rescanAdmissions = result.rescans.filter((s) => s.status === 200).length;
  const refusedRight = result.rescans.filter((s) => s.status === 409 && s.reason === 'already_checked_in').length;
  if (rescanAdmissions !== 1)
    failures.push(`the re-scanned ticket was admitted ${rescanAdmissions} times (expected once)`);
  if (rescanAdmissions + refusedRight !== result.rescans.length) {
    failures.push(
      `re-scans neither the one admission nor 409 already_checked_in: ${statuses(result.rescans.filter((s) => s.status !== 200 && s.reason !== 'already_checked_in'))}`,
    );
  }

  const sent = prepared.pool.slice(0, result.scans.length);
  const unique = new Set(result.admitted);
  if (unique.size !== result.admitted.length)
    failures.push(`${result.admitted.length - unique.size} tickets answered 200 twice`);
  // Each sent ticket (and the re-scanned one): one admitted scan record, checked in. One unsent ticket must be untouched.
  const checked = [...sent, prepared.rescanTicket];
  const untouched = prepared.pool[sent.length];
  const reads = await inBatches([...checked, ...(untouched === undefined ? [] : [untouched])], 25, async (id) => ({
    id,
    scans: await listScans(id),
    record: await readTicketRecord(id),
  }));
  let doubles = 0;
  let notCheckedIn = 0;
  for (const { id, scans, record } of reads) {
    const admissions = scans.filter((s) => s.outcome === 'admitted').length;
    const expected = id === untouched ? 0 : 1;
    if (admissions > 1) doubles++;
    if (admissions !== expected && admissions <= 1)
      failures.push(`ticket ${id}: ${admissions} admitted scans (expected ${expected})`);
    if (Boolean(record?.checkIn) !== (expected === 1)) notCheckedIn++;
  }
  if (doubles) failures.push(`${doubles} tickets admitted more than once`);
  if (notCheckedIn) failures.push(`${notCheckedIn} tickets whose check-in state disagrees with their scans`);
  if (prepared.rescanTicket !== undefined) {
    const refusedRecords = reads
      .find((r) => r.id === prepared.rescanTicket)!
      .scans.filter((s) => s.outcome === 'already_checked_in').length;
    // listScans reads at most 100 records: only a lower bound past that.
    if (refusedRecords < Math.min(refusedRight, 99))
      failures.push(`the re-scanned ticket holds ${refusedRecords} refused scans, ${refusedRight} were answered`);
  }

  const response = await fetch(`${baseUrl}${API_PREFIX}/tickets/check-in-stats?events=${prepared.eventId}`, {
    headers: { authorization: `Bearer ${prepared.readerToken}` },
  });
  const stats = ((await response.json()) as { data: { soldTickets: number; checkedInTickets: number } }).data;
  const admittedTickets = unique.size + 1 + offlineAdmitted;
  if (stats.checkedInTickets !== admittedTickets)
    failures.push(
      `statistics say ${stats.checkedInTickets} checked in, ${admittedTickets} distinct tickets were admitted`,
    );
  const held = prepared.pool.length + 1 + prepared.offlinePool.length;
  if (stats.soldTickets !== held) failures.push(`statistics say ${stats.soldTickets} sold, the event holds ${held}`);
  return failures;
}
