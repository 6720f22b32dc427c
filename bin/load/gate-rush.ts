/**
 * `npm run load:gate [-- --seconds 60 --scanners 20 --rescanners 5 --tickets 15000 --rate N --webhooks 3
 * --webhooks-priority low]`: the gate rush against the local server (bin/local/server.ts,
 * the real middy stack) over its own stand-ins on 127.0.0.1, started and stopped here. Prints
 * throughput, p50/p99, errors and transaction conflicts, checks the invariants (gate-rush-core.ts
 * `verifyGateRush`) and writes `.local/gate-rush.json`. Exits 1 when an invariant breaks, never for
 * latency. `--rate N` paces the scanners to N check-ins a second together (the gate's latency at
 * that load) instead of as fast as answered. `--webhooks N` (default 3; 0 for none) subscribes N
 * receivers on 127.0.0.1 to the event's check-ins, with the stream poller and dispatcher running in
 * a process of their own (webhook-side.ts), at low CPU priority unless `--webhooks-priority normal`:
 * the gate's figures with them active, every admitted check-in delivered to each, and the
 * commit-to-delivery time (p50, p99). `--hanging N` (default 0) subscribes N more receivers that
 * accept and never answer (the healthy ones' times beside them; each has failed once, a
 * ping, before the rush). `--offline N [--offline-tickets 2000]` adds N scanners that
 * download the admission list, scan offline through the rush and upload when back (gate-offline.ts).
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_ENV, BENCH_SIGNING_KEY, BENCH_SIGNING_STAGE, ROOT } from '../bench/settings.ts';
import { startLocalServices } from '../local/services.ts';
import type { FromWebhookSide, ToWebhookSide } from './webhook-side.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    scanners: { type: 'string', default: '20' },
    rescanners: { type: 'string', default: '5' },
    tickets: { type: 'string', default: '15000' },
    webhooks: { type: 'string', default: '3' },
    hanging: { type: 'string', default: '0' },
    'webhooks-priority': { type: 'string', default: 'low' },
    rate: { type: 'string' },
    offline: { type: 'string', default: '0' },
    'offline-tickets': { type: 'string', default: '2000' },
  },
});
// Scanners that go offline for the rush and upload when back (gate-offline.ts), and the tickets only they scan.
const offline = Number(values.offline);
const offlineTickets = offline ? Number(values['offline-tickets']) : 0;
if (![offline, offlineTickets].every((n) => Number.isInteger(n) && n >= 0 && n <= 50_000) || offline > 50) {
  console.error('--offline must be 0 to 50 devices and --offline-tickets 0 to 50000.');
  process.exit(2);
}
const options = {
  durationMs: Number(values.seconds) * 1000,
  scanners: Number(values.scanners),
  rescanners: Number(values.rescanners),
  tickets: Number(values.tickets),
};
const rate = values.rate === undefined ? undefined : Number(values.rate);
if (rate !== undefined && !(Number.isInteger(rate) && rate >= 1 && rate <= 10_000)) {
  console.error(
    `--rate must be a whole number of check-ins a second, 1 to 10000 (got ${JSON.stringify(values.rate)}).`,
  );
  process.exit(2);
}
const webhookCount = Number(values.webhooks);
const webhookPriority = values['webhooks-priority'];
if (webhookPriority !== 'low' && webhookPriority !== 'normal') {
  console.error(`--webhooks-priority must be low or normal (got ${JSON.stringify(webhookPriority)}).`);
  process.exit(2);
}
if (!Number.isInteger(webhookCount) || webhookCount < 0 || webhookCount > 10) {
  console.error(`--webhooks must be a whole number from 0 to 10 (got ${JSON.stringify(values.webhooks)}).`);
  process.exit(2);
}
const hangingCount = Number(values.hanging);
if (!Number.isInteger(hangingCount) || hangingCount < 0 || hangingCount > 5 || (hangingCount && !webhookCount)) {
  console.error(
    `--hanging must be a whole number from 0 to 5, beside --webhooks 1 or more (got ${JSON.stringify(values.hanging)}).`,
  );
  process.exit(2);
}
for (const [name, value] of Object.entries(options)) {
  if (!Number.isInteger(value) || value < 1 || value > (name === 'durationMs' ? 600_000 : 200_000)) {
    console.error(
      `--${name === 'durationMs' ? 'seconds' : name} must be a whole number in range (got ${JSON.stringify(value)}).`,
    );
    process.exit(2);
  }
}

const log = (line: string) => console.error(line);
const TABLE_NAME = 'ticketing-gate-rush';
const services = await startLocalServices();
let exitCode = 1;
try {
  // Before anything from shared/ loads: config and the SDK read the environment then.
  // Receivers on 127.0.0.1 (the local stack's setting); retries a second apart.
  Object.assign(process.env, BENCH_ENV, services.env, {
    TABLE_NAME,
    LOG_LEVEL: 'WARN',
    WEBHOOK_LOCAL_RECEIVERS: 'allow',
    WEBHOOK_RETRY_BASE_MS: '1000',
  });
  const { createTable } = await import('../local/table.ts');
  const { initLocalSigningKeys } = await import('../keys/commands.ts');
  const { startApiServer } = await import('../local/server.ts');
  const { prepareGateRush, runGateRush, summarise } = await import('./gate-rush-core.ts');
  const { verifyGateRush } = await import('./gate-rush-verify.ts');
  const { downloadGateLists, runOfflineGate } = await import('./gate-offline.ts');
  await createTable(TABLE_NAME);
  await initLocalSigningKeys(services, BENCH_SIGNING_STAGE, async () => ({ ...BENCH_SIGNING_KEY }));

  log(`Seeding one event with ${options.tickets + 1} tickets and ${options.scanners + options.rescanners} scanners...`);
  const prepared = await prepareGateRush({ ...options, offlineTickets }, log);
  const server = await startApiServer({ port: 0 });
  const webhookSide = webhookCount ? await forkWebhookSide(webhookCount, prepared.eventId) : undefined;
  try {
    log(
      `Rush: ${options.scanners} scanners on distinct tickets${rate ? ` offering ${rate}/s` : ''} + ${options.rescanners} re-scanning ticket ${prepared.rescanTicket}, ${options.durationMs / 1000} s against ${server.url}`,
    );
    const downloaded = offline ? await downloadGateLists(server.url, prepared, offline) : undefined;
    const [result, offlineResult] = await Promise.all([
      runGateRush(server.url, prepared, { ...options, rate }),
      downloaded ? runOfflineGate(server.url, prepared, downloaded, options.durationMs) : undefined,
    ]);
    log('Verifying the table and the statistics...');
    const failures = [
      ...(offlineResult?.failures ?? []),
      ...(await verifyGateRush(server.url, prepared, result, offlineResult?.admitted ?? 0)),
    ];
    if (webhookSide) log(`Waiting for the webhook deliveries (${webhookCount} receivers)...`);
    const deliveries = await webhookSide?.deliveries(
      [...result.admitted, ...(offlineResult?.admittedTickets ?? [])],
      120_000,
    );
    if (deliveries?.missing)
      failures.push(`${deliveries.missing} of ${deliveries.expected} webhook deliveries missing after 120 s`);
    const scans = summarise(result.scans, result.elapsedMs);
    const rescans = summarise(result.rescans, result.elapsedMs);
    const f = (n: number) => n.toFixed(1);
    console.log(
      [
        `Gate rush, ${(result.elapsedMs / 1000).toFixed(1)} s, event ${prepared.eventId}:`,
        `  scanners   ${options.scanners}: ${scans.requests} check-ins, ${f(scans.perSecond)}/s, p50 ${f(scans.p50Ms)} ms, p99 ${f(scans.p99Ms)} ms, max ${f(scans.maxMs)} ms, errors ${scans.errors}`,
        `  re-scans   ${options.rescanners}: ${rescans.requests} scans, ${f(rescans.perSecond)}/s, p50 ${f(rescans.p50Ms)} ms, p99 ${f(rescans.p99Ms)} ms, max ${f(rescans.maxMs)} ms, errors ${rescans.errors}`,
        `  transactions ${result.transactions.sent}: ${result.transactions.conflicts} TransactionConflict (retried by transactWrite), ${result.transactions.conditionFailed} stale ticket (re-read by changeTicket)`,
        offlineResult
          ? `  offline    ${offline} devices: ${offlineResult.scans} scans kept offline (${offlineResult.scans - offlineResult.admitted} double), ${offlineResult.admitted} admitted on upload, ${offlineResult.requests} requests (download, upload, a resent batch each) in ${f(offlineResult.uploadMs)} ms of upload, ${offlineResult.resendRounds} resend rounds, ${offlineResult.failed} failed`
          : '  offline    none',
        deliveries
          ? `  webhooks   ${webhookCount} receivers (${webhookPriority} priority): ${deliveries.expected - deliveries.missing} of ${deliveries.expected} delivered (${deliveries.repeats} repeats), commit to delivery p50 ${f(deliveries.p50Ms)} ms, p99 ${f(deliveries.p99Ms)} ms, max ${f(deliveries.maxMs)} ms${hangingCount ? `; beside ${hangingCount} hanging (sent ${deliveries.hangingAsked} requests, none answered)` : ''}`
          : '  webhooks   none subscribed',
        result.ranOut
          ? `  the ${prepared.pool.length} tickets ran out before the time was up: raise --tickets`
          : `  ${prepared.pool.length - result.scans.length} tickets left unscanned`,
        failures.length
          ? `INVARIANTS BROKEN:\n${failures.map((line) => `  - ${line}`).join('\n')}`
          : '  invariants hold: counters exact, no double admission, every re-scan refused with already_checked_in',
      ].join('\n'),
    );
    mkdirSync(join(ROOT, '.local'), { recursive: true });
    const out = join(ROOT, '.local', 'gate-rush.json');
    const json = {
      measuredAt: new Date().toISOString(),
      node: process.version,
      options: { ...options, rate: rate ?? null },
      elapsedMs: result.elapsedMs,
      scans,
      rescans,
      transactions: result.transactions,
      webhooks: deliveries
        ? { receivers: webhookCount, hanging: hangingCount, priority: webhookPriority, ...deliveries }
        : null,
      offline: offlineResult ?? null,
      ranOut: result.ranOut,
      failures,
    };
    writeFileSync(
      out,
      `${JSON.stringify(json, (_, value) => (typeof value === 'number' ? Math.round(value * 1000) / 1000 : value), 2)}\n`,
    );
    log(`Wrote ${out}.`);
    exitCode = failures.length ? 1 : 0;
  } finally {
    webhookSide?.kill();
    await server.close();
  }
} catch (error) {
  console.error(error);
} finally {
  await services.stop();
}
process.exit(exitCode);

/**
 * The receivers, the stream consumer and the dispatcher in a child process (webhook-side.ts), as
 * deployed they run apart from the API: the gate's figures are the API's, sharing only the
 * machine's cores and DynamoDB Local with them.
 */
async function forkWebhookSide(count: number, eventId: number) {
  const child = fork(fileURLToPath(new URL('./webhook-side.ts', import.meta.url)), {
    env: {
      ...process.env,
      GATE_RUSH_WEBHOOKS: String(count),
      GATE_RUSH_HANGING: String(hangingCount),
      GATE_RUSH_EVENT_ID: String(eventId),
    },
  });
  // Deployed, it runs on compute of its own; here it shares the cores, so it yields them. (The gate still shares
  // DynamoDB Local's one thread with it: bin/bench/results.md "Gate rush with webhooks".)
  if (webhookPriority === 'low') setPriority(child.pid!, 19);
  const next = () =>
    new Promise<FromWebhookSide>((resolve, reject) => {
      child.once('message', (message) => resolve(message as FromWebhookSide));
      child.once('exit', (code) => reject(new Error(`the webhook side exited (${code}) before answering`)));
    });
  await next();
  return {
    async deliveries(admitted: number[], timeoutMs: number) {
      const answer = next();
      child.send({ admitted, timeoutMs } satisfies ToWebhookSide);
      const message = await answer;
      if (!('deliveries' in message)) throw new Error('the webhook side answered out of turn');
      return message.deliveries;
    },
    kill: () => child.kill(),
  };
}
