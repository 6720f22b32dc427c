import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { downloadGateLists, runOfflineGate } from '../../bin/load/gate-offline.ts';
import { prepareGateRush, runGateRush, type Prepared } from '../../bin/load/gate-rush-core.ts';
import { verifyGateRush } from '../../bin/load/gate-rush-verify.ts';
import { startApiServer, type ApiServer } from '../../bin/local/server.ts';
import { awaitDeliveries, subscribeReceivers, type ReceiverFleet } from '../../bin/load/webhook-receivers.ts';
import { startWebhookWorkers, type WebhookWorkers } from '../support/webhooks.ts';

// Its own table with a stream, set before anything reads TABLE_NAME (the shared table has none: test/support/env.ts).
await vi.hoisted(async () => (await import('../support/env.ts')).useOwnStreamTable('gate-rush'));

/**
 * The gate rush in small (`npm run load:gate` runs it for 60 s with 20 + 5 clients):
 * concurrent scanners over HTTP against the local server, then the invariants. No timing
 * is asserted; a few seconds of rush are enough for scanners to race one another on the
 * statistics shards and for the re-scanners to race the one admission. Three webhook
 * receivers are subscribed to the event's check-ins throughout, as `npm run load:gate` has them;
 * three devices scan offline meanwhile and upload when back, as `npm run load:gate -- --offline 3` has them.
 */
const options = { scanners: 4, rescanners: 3, durationMs: 1_500, tickets: 80, offlineTickets: 40 };

describe('the gate rush, short', () => {
  let api: ApiServer;
  let prepared: Prepared;
  let fleet: ReceiverFleet;
  let workers: WebhookWorkers;
  beforeAll(async () => {
    api = await startApiServer({ port: 0 });
    prepared = await prepareGateRush(options, () => {});
    fleet = await subscribeReceivers(3, prepared.eventId);
    workers = await startWebhookWorkers();
  });
  afterAll(async () => {
    await workers?.stop();
    await fleet?.close();
    await api?.close();
  });

  it('admits every distinct ticket once, refuses every re-scan with its reason, and keeps the counters exact, with three devices scanning offline and uploading when back', async () => {
    const downloaded = await downloadGateLists(api.url, prepared, 3);
    const [result, offline] = await Promise.all([
      runGateRush(api.url, prepared, options),
      runOfflineGate(api.url, prepared, downloaded, options.durationMs),
    ]);
    expect(result.scans.length).toBeGreaterThan(0);
    expect(result.rescans.length).toBeGreaterThan(options.rescanners);
    // Every offline ticket admitted once on upload, some scanned on two devices, every scan kept, no request failed.
    expect(offline, JSON.stringify(offline)).toMatchObject({
      admitted: options.offlineTickets,
      failed: 0,
      failures: [],
    });
    expect(offline.scans).toBeGreaterThan(options.offlineTickets);
    expect(await verifyGateRush(api.url, prepared, result, offline.admitted)).toEqual([]);
    // Every admission (the re-scanned ticket's one and the offline uploads' included) reached every receiver: none lost
    // under the rush (a repeat would be allowed: at least once), and no message for a refused re-scan.
    const admitted = [...result.admitted, prepared.rescanTicket, ...offline.admittedTickets].sort((a, b) => a - b);
    await workers.drain();
    const deliveries = await awaitDeliveries(fleet, admitted, 15_000);
    expect(deliveries).toMatchObject({ expected: admitted.length * 3, missing: 0 });
    for (const counts of fleet.received) expect([...counts.keys()].sort((a, b) => a - b)).toEqual(admitted);
  }, 90_000);
});
