import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareGateRush, runGateRush, verifyGateRush, type Prepared } from '../../bin/load/gate-rush-core.ts';
import { startApiServer, type ApiServer } from '../../bin/local/server.ts';

/**
 * The gate rush in small (`npm run load:gate` runs it for 60 s with 20 + 5 clients):
 * concurrent scanners over HTTP against the local server, then the invariants. No timing
 * is asserted; a few seconds of rush are enough for scanners to race one another on the
 * statistics shards and for the re-scanners to race the one admission.
 */
const options = { scanners: 4, rescanners: 3, durationMs: 1_500, tickets: 80 };

describe('the gate rush, short', () => {
  let api: ApiServer;
  let prepared: Prepared;
  beforeAll(async () => {
    api = await startApiServer({ port: 0 });
    prepared = await prepareGateRush(options, () => {});
  });
  afterAll(() => api?.close());

  it('admits every distinct ticket once, refuses every re-scan with its reason, and keeps the counters exact', async () => {
    const result = await runGateRush(api.url, prepared, options);
    expect(result.scans.length).toBeGreaterThan(0);
    expect(result.rescans.length).toBeGreaterThan(options.rescanners);
    expect(await verifyGateRush(api.url, prepared, result)).toEqual([]);
  });
});
