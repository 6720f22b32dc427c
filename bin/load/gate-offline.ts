/**
 * The gate rush with part of the gate offline (`npm run load:gate -- --offline N`):
 * N devices download the event's admission list (`GET /gate-lists/{eventId}`), lose the
 * network for the rush, keep scanning their own share of the tickets against their copy
 * (each also scans some of the next device's share: double scans across devices), then
 * upload their logs in batches of up to 500 (`POST /scans`) all at once, and resend their
 * first batch as a device whose answer was lost would. Then the invariants: every request
 * answered 200, a resent batch answered as first, each ticket admitted exactly once, every
 * scan recorded on its ticket. (The statistics are checked with the online rush's,
 * gate-rush-core.ts `verifyGateRush`, given how many tickets were admitted here.)
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { API_PREFIX } from '#shared/api-prefix';
import { listScans } from '#shared/gate/data/check-ins';
import type { Prepared } from './gate-rush-core.ts';

interface Entry {
  barcode: string;
  ticketId: number;
  state: string;
}
interface ScanLine {
  id: string;
  barcode: string;
  scannedAt: string;
  deviceId: string;
}
interface ScanAnswer {
  id: string;
  result: string;
  ticketId?: number;
}

export interface OfflineResult {
  devices: number;
  /** Scans the devices kept offline (double scans included). */
  scans: number;
  /** Requests of the download and the uploads, and how many did not answer 200. */
  requests: number;
  failed: number;
  /** Tickets an upload answered `admitted` for, and which (their check-ins reach the webhook receivers too). */
  admitted: number;
  admittedTickets: number[];
  uploadMs: number;
  /** Uploads made again for scans answered `resend` (all devices together). */
  resendRounds: number;
  failures: string[];
}

const MAX_BATCH = 500;
/** Uploads of the scans answered `resend` a device makes before the run calls it a failure. */
const MAX_RESEND_ROUNDS = 20;

async function send(baseUrl: string, token: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${API_PREFIX}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).catch(() => undefined);
  const answer = (await response?.json().catch(() => undefined)) as
    | { data?: unknown[]; next?: string | null }
    | undefined;
  return { status: response?.status ?? 0, body: answer };
}

/** Every answer of the admission list, walked by `next`. */
async function download(baseUrl: string, token: string, eventId: number, count: () => void) {
  const copy = new Map<string, Entry>();
  let path = `/gate-lists/${eventId}`;
  for (;;) {
    const answer = await send(baseUrl, token, path);
    count();
    if (answer.status !== 200) return undefined;
    for (const entry of (answer.body?.data ?? []) as Entry[]) copy.set(entry.barcode, entry);
    if (!answer.body?.next) return copy;
    path = `/gate-lists/${eventId}?_cursor=${encodeURIComponent(answer.body.next)}`;
  }
}

export interface Downloaded {
  copies: (Map<string, Entry> | undefined)[];
  requests: number;
}

/** Before the rush, while the network is up: each device downloads the admission list. */
export async function downloadGateLists(baseUrl: string, prepared: Prepared, devices: number): Promise<Downloaded> {
  let requests = 0;
  const tokens = prepared.scannerTokens;
  const copies = await Promise.all(
    Array.from({ length: devices }, (_, d) =>
      download(baseUrl, tokens[d % tokens.length]!, prepared.eventId, () => requests++),
    ),
  );
  return { copies, requests };
}

/** The offline devices' rush: scan offline until `durationMs` is up, then upload, resend, verify. */
export async function runOfflineGate(
  baseUrl: string,
  prepared: Prepared,
  downloaded: Downloaded,
  durationMs: number,
): Promise<OfflineResult> {
  const { copies } = downloaded;
  const devices = copies.length;
  let requests = downloaded.requests;
  let failed = 0;
  const failures: string[] = [];
  const tokens = prepared.scannerTokens;
  if (copies.some((copy) => !copy)) failures.push('a device could not download the admission list');
  const barcodeOf = new Map([...(copies[0]?.values() ?? [])].map((entry) => [entry.ticketId, entry.barcode]));
  // Device d's share, and a quarter of the next device's: those are scanned twice, on two devices.
  const share = (d: number) => prepared.offlinePool.filter((_, i) => i % devices === d);
  const plan = Array.from({ length: devices }, (_, d) => [
    ...share(d),
    ...share((d + 1) % devices).filter((_, i) => devices > 1 && i % 4 === 0),
  ]);
  const logs: ScanLine[][] = plan.map(() => []);
  const deadline = performance.now() + durationMs;
  await Promise.all(
    plan.map(async (tickets, d) => {
      const interval = durationMs / Math.max(1, tickets.length);
      for (const ticketId of tickets) {
        const barcode = barcodeOf.get(ticketId);
        const local = copies[d]?.get(barcode ?? '');
        if (!barcode || !local) {
          failures.push(`ticket ${ticketId} is not on device ${d}'s admission list`);
          continue;
        }
        // Resolved locally (the device admits what its copy says is admittable), and logged.
        if (local.state === 'admittable') local.state = 'checked_in';
        const deviceId = `offline-${d}`;
        logs[d]!.push({ id: randomUUID(), barcode, scannedAt: new Date().toISOString(), deviceId });
        const wait = Math.min(interval, deadline - performance.now());
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }),
  );

  // Back online: every device uploads its log at once, in batches, then resends its first batch.
  const started = performance.now();
  const answers = new Map<string, ScanAnswer>();
  const upload = async (d: number, batch: ScanLine[]) => {
    const answer = await send(baseUrl, tokens[d % tokens.length]!, '/scans', {
      eventId: prepared.eventId,
      scans: batch,
    });
    requests++;
    if (answer.status !== 200) failed++;
    return (answer.body?.data ?? []) as ScanAnswer[];
  };
  let resendRounds = 0;
  await Promise.all(
    logs.map(async (log, d) => {
      // The protocol (README "The gate offline"): upload the log, then send again what answered `resend`
      // (the upload's budget did not reach it) until nothing does.
      let pending = log;
      for (let round = 0; pending.length && round < MAX_RESEND_ROUNDS; round++) {
        for (let start = 0; start < pending.length; start += MAX_BATCH)
          for (const answer of await upload(d, pending.slice(start, start + MAX_BATCH))) answers.set(answer.id, answer);
        pending = pending.filter((line) => answers.get(line.id)?.result === 'resend');
        if (pending.length) resendRounds++;
      }
      if (pending.length) failures.push(`device ${d}: ${pending.length} scans still answered resend`);
      // A device whose answer was lost sends its first batch again: every scan answers what it got.
      const resent = await upload(d, log.slice(0, MAX_BATCH));
      if (resent.some((answer) => !isDeepStrictEqual(answer, answers.get(answer.id))))
        failures.push(`device ${d}'s resent batch was not answered as the first time`);
    }),
  );
  const uploadMs = performance.now() - started;

  const all = logs.flat();
  if (answers.size !== all.length) failures.push(`${all.length - answers.size} scans got no answer`);
  const admittedBy = new Map<number, number>();
  for (const answer of answers.values())
    if (answer.result === 'admitted') admittedBy.set(answer.ticketId!, (admittedBy.get(answer.ticketId!) ?? 0) + 1);
  const scansOf = new Map<number, number>();
  for (const ticketId of plan.flat()) scansOf.set(ticketId, (scansOf.get(ticketId) ?? 0) + 1);
  let wrong = 0;
  for (const [ticketId, scanned] of scansOf) {
    const kept = await listScans(ticketId);
    const admissions = kept.filter((scan) => scan.outcome === 'admitted').length;
    if (admittedBy.get(ticketId) !== 1 || admissions !== 1 || kept.length !== scanned) wrong++;
  }
  if (wrong) failures.push(`${wrong} offline tickets not admitted exactly once with every scan recorded`);
  if (failed) failures.push(`${failed} offline requests answered other than 200`);
  return {
    devices,
    scans: all.length,
    requests,
    failed,
    admitted: admittedBy.size,
    admittedTickets: [...admittedBy.keys()],
    uploadMs,
    resendRounds,
    failures,
  };
}
