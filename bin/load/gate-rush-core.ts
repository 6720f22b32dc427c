/**
 * The gate rush: many scanners checking in distinct tickets of one event through
 * the HTTP API while a few clients re-scan one ticket, then a check of what the table
 * holds. Used by `npm run load:gate` (bin/load/gate-rush.ts, 60 s) and by a short
 * integration test that asserts the invariants only. Everything here runs in the process
 * that serves the API, so the transaction counter sees the handlers' own DynamoDB client.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { hashPassword } from '#shared/auth/passwords';
import { issueToken } from '#shared/identity/services/token-issuer';
import { epochSeconds } from '#shared/clock';
import { createAdministrator } from '#shared/identity/data/administrators';
import { db } from '#shared/data/client';
import { createEvent } from '#shared/events/data/event-creation';
import { eventListing } from '#shared/lists/event-listing';
import { createTicket } from '#shared/tickets/use-cases/create-ticket';
import type { Permission } from '#shared/auth/permissions';
import { API_PREFIX } from '#shared/api-prefix';
import { catchUpTickets } from '#shared/webhooks/use-cases/jobs';
import { runAs } from '../local/invoke.ts';

export interface GateRushOptions {
  /** Clients admitting distinct tickets, each with its own administrator and token. */
  scanners: number;
  /** Clients scanning the same one ticket over and over (only the first scan may admit it). */
  rescanners: number;
  durationMs: number;
  /** Tickets in the event: the scanners share them, each ticket is sent once. */
  tickets: number;
  /**
   * Check-ins a second the scanners offer together, paced (each re-scanner then scans once a
   * second): the gate's latency at a given load. Unset, every client scans as fast as it is
   * answered: the most the stack serves.
   */
  rate?: number;
  /** Tickets kept apart for the scanners that go offline (gate-offline.ts), none by default. */
  offlineTickets?: number;
  /** Ends the rush before `durationMs` (the on-sale's gate side stops with the on-sale's rush: onsale-gate.ts). */
  signal?: AbortSignal;
}

export interface Prepared {
  eventId: number;
  /** The distinct tickets, in the order the scanners take them. */
  pool: number[];
  /** The ticket the re-scanners share (not in `pool`). */
  rescanTicket: number;
  scannerTokens: string[];
  /** An administrator who may read the statistics (the scanners may only scan). */
  readerToken: string;
  /** The tickets only the offline scanners scan (gate-offline.ts). */
  offlinePool: number[];
}

interface Sample {
  ms: number;
  /** When the answer came (performance.now()): a window's answers (onsale-gate.ts). */
  answeredAt: number;
  status: number;
  /** The problem's `reason` on a refusal. */
  reason?: string;
}

export interface RushResult {
  elapsedMs: number;
  scans: Sample[];
  rescans: Sample[];
  /** Tickets a scanner got 200 for. */
  admitted: number[];
  /** Whether the pool ran out before the time was up (the run then measured fewer scanners at the end). */
  ranOut: boolean;
  transactions: TransactionCounts;
}

export interface TransactionCounts {
  sent: number;
  /** Cancelled because another transaction held an item (DynamoDB's TransactionConflict); `transactWrite` retries these. */
  conflicts: number;
  /** Cancelled on a failed condition (the ticket's version moved: `changeTicket` re-reads and decides again). */
  conditionFailed: number;
}

const log = (line: string) => console.error(line);

/** One event with `options.tickets + 1` tickets, the scanners' and a reader's tokens. Outside the timed section. */
export async function prepareGateRush(options: GateRushOptions, progress = log): Promise<Prepared> {
  const event = await createEvent(
    {
      title: 'Gate rush',
      timezone: 'Europe/London',
      startsAt: '2027-06-01T08:00:00Z',
      ticketTypes: [{ name: 'Gate rush GA', price: 10, total: options.tickets + (options.offlineTickets ?? 0) + 100 }],
    },
    eventListing,
  );
  const typeId = event.ticketTypes[0]!.id;
  const ids: number[] = [];
  const started = performance.now();
  let next = 0;
  // 20 creations in flight: DynamoDB Local takes them faster than one at a time, and ids stay distinct.
  const creator = async () => {
    while (next < options.tickets + 1 + (options.offlineTickets ?? 0)) {
      next++;
      ids.push((await createTicket({ typeId, partyMember: 'Gate rush' })).id);
      if (ids.length % 2000 === 0)
        progress(`  ${ids.length} tickets (${Math.round(ids.length / ((performance.now() - started) / 1000))}/s)`);
    }
  };
  await Promise.all(Array.from({ length: 20 }, creator));
  await listsCaughtUp(ids);
  const passwordHash = await hashPassword('gate-rush-unused-password');
  const tokenFor = async (name: string, permissions: Permission[]) => {
    const admin = await createAdministrator({
      login: `${name}@gate-rush.local`,
      email: `${name}@gate-rush.local`,
      name,
      permissions,
      vendorUser: 0,
      passwordHash,
    });
    return issueToken({
      kind: 'admin',
      id: admin.id,
      login: admin.login,
      permissions,
      vendorUser: false,
      authTime: epochSeconds(),
    });
  };
  const scannerTokens = await Promise.all(
    Array.from({ length: options.scanners + options.rescanners }, (_, k) =>
      tokenFor(`scanner-${event.id}-${k}`, ['checkin:scan']),
    ),
  );
  const readerToken = await tokenFor(`reader-${event.id}`, ['tickets:read']);
  const [rescanTicket, ...rest] = ids;
  const pool = rest.slice(0, options.tickets);
  const offlinePool = rest.slice(options.tickets);
  return { eventId: event.id, pool, rescanTicket: rescanTicket!, scannerTokens, readerToken, offlinePool };
}

/** Tickets one catch-up run takes (one consistent BatchGetItem of their records), and runs at once. */
const CATCH_UP_BATCH = 100;
const CATCH_UP_WIDTH = 4;

/**
 * The new tickets' list entries and positions (the devices' admission lists among them), as the table stream's
 * consumer of ticket changes writes them after each creation (shared/lists/README.md "What the stream's consumer
 * writes"): the consumers start after the preparation, reading the stream from its latest record, so they never see
 * these creations; the preparation hands the tickets to the consumer's own step instead, as the function runs it.
 */
async function listsCaughtUp(ids: readonly number[]): Promise<void> {
  const batches: number[][] = [];
  for (let start = 0; start < ids.length; start += CATCH_UP_BATCH)
    batches.push(ids.slice(start, start + CATCH_UP_BATCH));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      await runAs('ticket-changes', () => catchUpTickets(batch));
    }
  };
  await Promise.all(Array.from({ length: CATCH_UP_WIDTH }, worker));
}

/** Counts TransactWriteItems and how they were cancelled, on the handlers' DynamoDB client, until `stop()`. */
export function countTransactions(): { counts: TransactionCounts; stop(): void } {
  const counts: TransactionCounts = { sent: 0, conflicts: 0, conditionFailed: 0 };
  const name = 'gateRushTransactionCounter';
  db.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      counts.sent++;
      try {
        return await next(args);
      } catch (error) {
        if (error instanceof TransactionCanceledException) {
          const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code);
          if (codes.includes('ConditionalCheckFailed')) counts.conditionFailed++;
          else if (codes.includes('TransactionConflict')) counts.conflicts++;
        }
        throw error;
      }
    },
    { step: 'initialize', name },
  );
  return { counts, stop: () => db.middlewareStack.remove(name) };
}

async function scan(baseUrl: string, ticketId: number, eventId: number, token: string): Promise<Sample> {
  const started = performance.now();
  // A refused connection or reset is an error of the run (status 0), not the end of it.
  const response = await fetch(`${baseUrl}${API_PREFIX}/tickets/${ticketId}/check-in?event=${eventId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  }).catch(() => undefined);
  if (!response) return { ms: performance.now() - started, answeredAt: performance.now(), status: 0 };
  const body = (await response.json().catch(() => undefined)) as { reason?: string } | undefined;
  const answeredAt = performance.now();
  return {
    ms: answeredAt - started,
    answeredAt,
    status: response.status,
    ...(body?.reason ? { reason: body.reason } : {}),
  };
}

/** The rush itself: every client loops until the time is up (or, for the scanners, the pool runs out). */
export async function runGateRush(baseUrl: string, prepared: Prepared, options: GateRushOptions): Promise<RushResult> {
  const counter = countTransactions();
  const scans: Sample[] = [];
  const rescans: Sample[] = [];
  const admitted: number[] = [];
  let next = 0;
  let ranOut = false;
  const started = performance.now();
  const deadline = started + options.durationMs;
  const running = () => performance.now() < deadline && !options.signal?.aborted;
  // Paced: client n of `clients` scans at started + (n / clients + k) × interval; a late one goes at once.
  const pace = (interval: number | undefined, n: number, clients: number) => {
    let k = 0;
    return async () => {
      if (interval === undefined) return;
      const due = started + (n / clients + k++) * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    };
  };
  const scanInterval = options.rate ? (1000 * options.scanners) / options.rate : undefined;
  const rescanInterval = options.rate ? 1000 : undefined;
  const scanner = async (token: string, n: number) => {
    const paced = pace(scanInterval, n, options.scanners);
    while (running()) {
      await paced();
      if (!running()) return;
      const ticketId = prepared.pool[next++];
      if (ticketId === undefined) {
        ranOut = true;
        return;
      }
      const sample = await scan(baseUrl, ticketId, prepared.eventId, token);
      scans.push(sample);
      if (sample.status === 200) admitted.push(ticketId);
    }
  };
  const rescanner = async (token: string, n: number) => {
    const paced = pace(rescanInterval, n, options.rescanners);
    while (running()) {
      await paced();
      if (!running()) return;
      rescans.push(await scan(baseUrl, prepared.rescanTicket, prepared.eventId, token));
    }
  };
  try {
    await Promise.all([
      ...prepared.scannerTokens.slice(0, options.scanners).map(scanner),
      ...prepared.scannerTokens.slice(options.scanners, options.scanners + options.rescanners).map(rescanner),
    ]);
  } finally {
    counter.stop();
  }
  return {
    elapsedMs: performance.now() - started,
    scans,
    rescans,
    admitted,
    ranOut,
    transactions: { ...counter.counts },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;

/** Throughput and latency of one kind of client. */
export function summarise(samples: Sample[], elapsedMs: number) {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return {
    requests: samples.length,
    perSecond: samples.length / (elapsedMs / 1000),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.at(-1) ?? NaN,
    errors: samples.filter((s) => s.status >= 500 || s.status === 0).length,
  };
}
