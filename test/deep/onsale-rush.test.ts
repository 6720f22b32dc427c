import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareGateSide, runOnSaleBesideGate, verifyGateSide } from '../../bin/load/onsale-gate.ts';
import { closeAgents } from '../../bin/load/onsale-http.ts';
import { type OnSaleTarget, prepareOnSale } from '../../bin/load/onsale-setup.ts';
import { checkAnswers, verifyOnSale } from '../../bin/load/onsale-verify.ts';
import { type ApiServer, startApiServer } from '../../bin/local/server.ts';
import { type OrderIssuer, startOrderIssuer } from '../../bin/local/order-issuer.ts';
import { startReservationLapser } from '../../bin/local/reservation-lapser.ts';
import { TEST_SEED } from '../support/seeded-random.ts';
import { startWebhookWorkers, type WebhookWorkers } from '../support/webhooks.ts';

// A table of its own, set before anything reads TABLE_NAME: the lapse job below runs on the real clock over every due
// reservation, which must not reach the other files' reservations. With a stream (made by the global set-up): the paid
// orders' tickets are issued behind the webhook by the stream's consumer, and listed by the ticket changes' consumer,
// as `npm start` runs them.
const table = await vi.hoisted(async () => (await import('../support/env.ts')).useOwnStreamTable('onsale'));

/**
 * The on-sale rush in small (`npm run load:onsale` runs 10,000 buyers for 2,000 tickets): 200 buyers for
 * 100 tickets within 2 s over HTTP against the local server, paying at the Stripe stand-in, the lapse job
 * running every second, then every check of the tool. The buyers come from 3 client networks, so the
 * per-network reservation limit (60 a minute) refuses some with 429 and Retry-After and they ask again after it;
 * the walked-away holds lapse after the event's minute and the queue's buyers take their tickets. Beside the rush, as
 * many gate clients as its requests in flight check in another event's tickets through the same server, with the
 * gate rush's own checks. No timing is asserted.
 */
const options = {
  buyers: 200,
  tickets: 100,
  seconds: 2,
  networks: 3,
  concurrency: 16,
  seed: TEST_SEED,
  maxMs: 240_000,
};

describe('the on-sale rush, small', () => {
  let api: ApiServer;
  let lapser: { stop(): Promise<void> };
  let issuer: OrderIssuer;
  let ticketChanges: WebhookWorkers;
  let target: OnSaleTarget;
  beforeAll(async () => {
    api = await startApiServer({ port: 0 });
    lapser = startReservationLapser(1_000);
    issuer = await startOrderIssuer({ tableName: table });
    ticketChanges = await startWebhookWorkers();
    target = {
      apiUrl: `${api.url}/api/v2`,
      payments: {
        baseUrl: process.env.STRIPE_API_URL!,
        webhookUrl: `${api.url}/api/v2/payments/stripe/webhook`,
        publishableKey: process.env.STRIPE_PUBLISHABLE_KEY!,
      },
    };
  });
  afterAll(async () => {
    closeAgents();
    await lapser?.stop();
    await issuer?.stop();
    await ticketChanges?.stop();
    await api?.close();
  });

  it('sells out with 0 oversold, nothing held, every succeeded payment one paid order or one refund, no 5xx, refusals only 409 and 429 with Retry-After, beside a gate rush whose checks hold', async () => {
    const gateSide = await prepareGateSide(options.concurrency, 300, () => {});
    const prepared = await prepareOnSale(target, options, () => {});
    const { result, gate } = await runOnSaleBesideGate(target, prepared, options, gateSide);
    expect(await verifyOnSale(target, prepared, result)).toEqual([]);
    // The gate side ran during the rush, on the same server: check-ins admitted, the re-scans refused, counters exact.
    expect(gate?.scanners).toBe(13);
    expect(gate?.rescanners).toBe(3);
    expect(gate!.result.admitted.length).toBeGreaterThan(0);
    expect(gate!.result.rescans.some((s) => s.status === 409 && s.reason === 'already_checked_in')).toBe(true);
    expect(await verifyGateSide(target, gate!)).toEqual([]);
    // The rush did what it says: buyers walked away, were refused for sold out and by the network limit, paid. How
    // many of each depends on the machine's pace (who holds before the tickets run out), so only that each happened.
    expect(result.outcomes.paid).toBeGreaterThan(0);
    expect(result.outcomes.abandoned).toBeGreaterThan(0);
    expect(result.outcomes.sold_out).toBeGreaterThan(0);
    expect(result.retriedAfter429).toBeGreaterThan(0);
    expect(result.api.some((a) => a.status === 409 && a.reason === 'sold_out')).toBe(true);
  }, 330_000);

  it('a 5xx, a 400 or a 429 without Retry-After fails the checks', () => {
    const base = {
      elapsedMs: 1,
      rushMs: 1,
      confirms: [],
      purchases: [],
      outcomes: {} as never,
      retriedAfter429: 0,
      soldOut: true,
    };
    const answer = (status: number, extra = {}) => ({
      route: 'POST /my-account/reservations',
      status,
      ms: 1,
      sentAt: 0,
      first: true,
      ...extra,
    });
    expect(checkAnswers({ ...base, api: [answer(201), answer(409), answer(429, { retryAfter: '3' })] })).toEqual([]);
    expect(checkAnswers({ ...base, api: [answer(500), answer(400), answer(429), answer(0)] })).toHaveLength(4);
  });
});
