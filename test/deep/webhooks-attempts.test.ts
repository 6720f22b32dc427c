import { describe, expect, it, vi } from 'vitest';
import { getDelivery } from '#shared/webhooks/data/webhooks';
import { requestAttemptTimeoutMs } from '#shared/webhooks/services/webhook-settings';
import { handler as dispatcher } from '../../functions/jobs/dispatch.ts';
import { call } from '../support/api.ts';
import {
  deliveriesOf,
  editTicket,
  eventually,
  type Receiver,
  subscribe,
  watchedTicket,
  WEBHOOKS,
  webhookFixture,
} from '../support/webhooks.ts';

/**
 * Attempts and their time (README "Webhooks", functions/jobs/README.md): no
 * attempt starts that cannot end within its function's time, every attempt started is
 * recorded, and a delivery an attempt holds is not sent again by hand meanwhile.
 */
// A table (with its stream) of this file's own, before anything reads TABLE_NAME: the dispatchers of the webhook files
// running beside this one would otherwise attempt the due deliveries these tests count.
await vi.hoisted(async () => (await import('../support/env.ts')).useOwnStreamTable('attempts'));

const webhooks = webhookFixture();
// Every test here waits on the stream and the dispatcher, shared with the rest of `npm test`: 60 s each, not the
// default 20 (a timed-out test runs on, and its `finally` restarts the dispatcher in the middle of the next test).
const { receiver } = webhooks;

/** Until the receiver has had `count` requests (an attempt in flight has reached it). */
async function reached(r: Receiver, count: number): Promise<void> {
  for (let n = 0; n < 200 && r.received.length < count; n++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(r.received.length).toBeGreaterThanOrEqual(count);
}

describe('a delivery held by an attempt', () => {
  it('is not retried by hand meanwhile (409): sent once at a time, and the holder records its answer', async () => {
    const r = await receiver();
    const { token, ticket, hooks } = await watchedTicket(r, ['ticket.updated']);
    const [hook] = hooks;
    await webhooks.workers.stopDispatcher();
    let pendingId: string;
    try {
      r.answers.push(500, 'hang');
      await editTicket(token, ticket.id, { chipNumber: 'H-1' });
      pendingId = await eventually(webhooks.workers, async () => {
        const [only] = await deliveriesOf(token, hook!.id);
        expect(only).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 500 });
        return only!.id;
      });
      await new Promise((resolve) => setTimeout(resolve, 450)); // past its retry time (the tests' schedule: 400 ms at most)
      const run = webhooks.workers.dispatch();
      await reached(r, 2); // the dispatcher's attempt is at the receiver, which does not answer
      const retried = await call('POST', `${WEBHOOKS}/${hook!.id}/deliveries/${pendingId}/retry`, { token });
      expect(retried.status).toBe(409);
      expect(retried.body.reason).toBe('attempt_in_progress');
      await run;
    } finally {
      webhooks.workers.startDispatcher();
    }
    // The dispatcher's attempt (timed out) is the one recorded; the retry sent nothing.
    const [after] = await deliveriesOf(token, hook!.id);
    expect(after).toMatchObject({ id: pendingId, attempts: 2, lastStatus: null });
    expect(after!.lastError).toMatch(/no answer within/);
    expect(r.received.filter((m) => m.message.data.ticket?.chipNumber === 'H-1')).toHaveLength(2);
  }, 60_000);
});

describe('an attempt inside a request', () => {
  it('to a receiver that accepts and never answers: the ping and the retry answer, recorded timed out, nothing left claimed', async () => {
    const r = await receiver();
    const { token, hooks } = await watchedTicket(r, ['ticket.updated']);
    const hook = hooks[0]!;
    const timedOut = `no answer within ${requestAttemptTimeoutMs} ms`;
    await webhooks.workers.stopDispatcher();
    try {
      r.answers.push('hang', 'hang', 'hang');
      const ping = await call('POST', `${WEBHOOKS}/${hook.id}/ping`, { token });
      expect(ping.status, ping.raw).toBe(200);
      expect(ping.body.data).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null, lastError: timedOut });
      const id: string = ping.body.data.id;
      expect(await getDelivery(hook.id, id)).toMatchObject({ status: 'pending', attempts: 1, lastError: timedOut });
      // Two retries one after the other: the first released its claim when it recorded the timeout, so the second is
      // not 409 attempt_in_progress, and neither leaves the delivery held.
      for (const attempts of [2, 3]) {
        const retried = await call('POST', `${WEBHOOKS}/${hook.id}/deliveries/${id}/retry`, { token });
        expect(retried.status, retried.raw).toBe(200);
        expect(retried.body.data).toMatchObject({ status: 'pending', attempts, lastStatus: null, lastError: timedOut });
        const stored = await getDelivery(hook.id, id);
        expect(stored).toMatchObject({ status: 'pending', attempts, lastError: timedOut });
        expect(stored!.claimedUntil).toBeUndefined();
      }
      expect(r.received.map((m) => m.message.type)).toEqual(['webhook.ping', 'webhook.ping', 'webhook.ping']);
    } finally {
      webhooks.workers.startDispatcher();
    }
  }, 60_000);
});

describe("the dispatcher's deadline", () => {
  it('starts no attempt past it, and records every attempt it started', async () => {
    const r = await receiver();
    // Three subscriptions of 5 due deliveries each: one round's share (15) is more than it attempts at once (10).
    const { token, ticket, hooks } = await watchedTicket(r, ['ticket.updated'], 3);
    const EDITS = 5;
    const TOTAL = EDITS * hooks.length;
    const deliveries = async () => (await Promise.all(hooks.map((hook) => deliveriesOf(token, hook.id)))).flat();
    await webhooks.workers.stopDispatcher();
    try {
      // The first change fails (the subscriptions are then failing); the next ones are queued for the dispatcher.
      // Recorded before the next changes are made: in one stream batch, the consumer attempts them all at once and
      // the three 500s could go to one subscription's first three.
      r.answers.push(500, 500, 500);
      await editTicket(token, ticket.id, { chipNumber: 'D-0' });
      await eventually(webhooks.workers, async () =>
        expect((await deliveries()).map((d) => [d.status, d.lastStatus])).toEqual(hooks.map(() => ['pending', 500])),
      );
      for (let n = 1; n < EDITS; n++) await editTicket(token, ticket.id, { chipNumber: `D-${n}` });
      const waiting = await eventually(webhooks.workers, async () => {
        const all = await deliveries();
        expect(all.filter((d) => d.status === 'pending')).toHaveLength(TOTAL);
        return new Map(all.map((d) => [d.messageId, d.attempts]));
      });
      await new Promise((resolve) => setTimeout(resolve, 450));
      // Every retry hangs until the attempt's limit (1 s here); the run may start attempts for 300 ms only.
      r.answers.push(...Array(TOTAL).fill('hang'));
      const before = r.received.length;
      await dispatcher({}, { getRemainingTimeInMillis: () => 20_000 + 300 });
      const all = await deliveries();
      const attempted = all.filter((d) => d.attempts === waiting.get(d.messageId)! + 1);
      // Attempts started together, at once; none after the deadline, so some are left for the next run, unclaimed.
      expect(attempted.length).toBeGreaterThan(0);
      expect(attempted.length).toBeLessThan(TOTAL);
      expect(all.filter((d) => d.attempts === waiting.get(d.messageId))).toHaveLength(TOTAL - attempted.length);
      // Each attempt that reached the receiver is recorded with its outcome (none left in flight).
      expect(r.received.length - before).toBe(attempted.length);
      for (const d of attempted)
        expect(d).toMatchObject({ status: 'pending', lastError: expect.stringMatching(/no answer within/) });
    } finally {
      webhooks.workers.startDispatcher();
    }
  }, 60_000);
});

describe('Retry-After', () => {
  it("on a 503 the next attempt waits as the receiver asked, capped at the schedule's longest delay", async () => {
    const r = await receiver();
    const { token, ticket, hooks } = await watchedTicket(r, ['ticket.updated']);
    await webhooks.workers.stopDispatcher();
    try {
      r.answers.push({ status: 503, headers: { 'retry-after': '3600' } });
      await editTicket(token, ticket.id, { chipNumber: 'R-1' });
      const [pending] = await eventually(webhooks.workers, async () => {
        const all = await deliveriesOf(token, hooks[0]!.id);
        expect(all).toMatchObject([{ status: 'pending', attempts: 1, lastStatus: 503 }]);
        return all as unknown as { lastAttemptAt: string; nextAttemptAt: string }[];
      });
      // The tests' schedule: retries 50-100 ms after a first failure's answer, 400 ms at most; the receiver asked for an
      // hour. Counted from the attempt's start, so the answer's time (under 1 s) comes on top.
      const waited = Date.parse(pending!.nextAttemptAt) - Date.parse(pending!.lastAttemptAt);
      expect(waited).toBeGreaterThanOrEqual(400);
      expect(waited).toBeLessThan(400 + 1000);
    } finally {
      webhooks.workers.startDispatcher();
    }
  }, 60_000);
});

describe('one hanging receiver', () => {
  it('does not hold up a healthy one: once failing, its new messages are queued for the dispatcher, not attempted inline', async () => {
    const hanging = await receiver();
    const { token, event, ticket, hooks } = await watchedTicket(hanging, ['ticket.updated']);
    const healthy = await receiver();
    const good = await subscribe(token, healthy, { events: ['ticket.updated'], eventIds: [event.id] });
    hanging.answers.push(...Array(50).fill('hang'));
    await webhooks.workers.stopDispatcher();
    try {
      await editTicket(token, ticket.id, { chipNumber: 'F-0' });
      // The first change is attempted at both (the hanging one times out, and is marked failing).
      await eventually(webhooks.workers, () => expect(healthy.received).toHaveLength(1));
      await eventually(webhooks.workers, async () =>
        expect((await deliveriesOf(token, hooks[0]!.id))[0]?.attempts).toBe(1),
      );
      for (let n = 1; n <= 3; n++) await editTicket(token, ticket.id, { chipNumber: `F-${n}` });
      const queued = await eventually(webhooks.workers, async () => {
        expect(healthy.received).toHaveLength(4);
        const all = await deliveriesOf(token, hooks[0]!.id);
        expect(all).toHaveLength(4);
        return all;
      });
      // Not attempted inline: recorded due with no attempt, and the hanging receiver was asked once only.
      expect(queued.map((d) => [d.status, d.attempts])).toEqual([
        ['pending', 0],
        ['pending', 0],
        ['pending', 0],
        ['pending', 1],
      ]);
      expect(hanging.received).toHaveLength(1);
    } finally {
      webhooks.workers.startDispatcher();
    }
    // The healthy receiver had every change, in order; the hanging one only the first attempt: the rest wait, due.
    expect(healthy.received.map((m) => m.message.data.ticket.chipNumber)).toEqual(['F-0', 'F-1', 'F-2', 'F-3']);
    expect((await deliveriesOf(token, good.id)).every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
  }, 60_000);
});

describe('a disabled subscription', () => {
  it('records what it missed as skipped, never attempted; once on again, a retry sends it', async () => {
    const r = await receiver();
    const { token, ticket, hooks } = await watchedTicket(r, ['ticket.updated']);
    const hook = hooks[0]!;
    expect((await call('PATCH', `${WEBHOOKS}/${hook.id}`, { token, body: { enabled: false } })).status).toBe(200);
    await editTicket(token, ticket.id, { chipNumber: 'S-1' });
    const [missed] = await eventually(webhooks.workers, async () => {
      const all = await deliveriesOf(token, hook.id);
      expect(all).toMatchObject([{ status: 'skipped', attempts: 0 }]);
      return all;
    });
    await webhooks.workers.dispatch();
    expect(r.received).toHaveLength(0);
    expect((await call('PATCH', `${WEBHOOKS}/${hook.id}`, { token, body: { enabled: true } })).status).toBe(200);
    const sent = await call('POST', `${WEBHOOKS}/${hook.id}/deliveries/${missed!.id}/retry`, { token });
    expect(sent.body.data).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(r.received.map((m) => m.message.data.ticket.chipNumber)).toEqual(['S-1']);
  }, 60_000);
});
