import { describe, expect, it, vi } from 'vitest';
import { seedEvent } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { atTime } from '../support/clock.ts';
import { countReads } from '../support/dynamo-reads.ts';
import { makeAdmin, staffToken } from '../support/staff.ts';
import {
  deliveriesOf,
  editTicket,
  eventually,
  type Receiver,
  WEBHOOKS,
  watchedTicket,
  webhookFixture,
} from '../support/webhooks.ts';

/**
 * Catching up (functions/jobs/README.md "Catching up"): a receiver that was down
 * asks, in one call, for every delivery of a time range that ended without being delivered;
 * the dispatcher sends each once, and nothing outside the range, held by an attempt, or
 * recorded for another aim.
 */
// A table (with its stream) of this file's own, before anything reads TABLE_NAME: the dispatchers of the webhook files
// running beside this one would otherwise attempt the deliveries these tests queue and count.
await vi.hoisted(async () => (await import('../support/env.ts')).useOwnStreamTable('redeliver'));

const webhooks = webhookFixture();
// Every test here waits on the stream and the dispatcher (even the 400s and 404s: their subscription first misses a
// change), late in `npm test` on a DynamoDB Local slowed by the run's stream records: 60 s each, not the default 20.
const LIMIT_MS = 60_000;

const redeliver = (token: string, webhookId: number, body: unknown) =>
  call('POST', `${WEBHOOKS}/${webhookId}/deliveries/redeliver`, { token, body });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const chips = (r: Receiver, from = 0) => r.received.slice(from).map((m) => m.message.data.ticket?.chipNumber);
/** A subscription's deliveries, oldest first. */
type Listed = Awaited<ReturnType<typeof deliveriesOf>>[number] & { nextAttemptAt: string | null };
const byChip = async (token: string, webhookId: number) => (await deliveriesOf(token, webhookId)).reverse() as Listed[];

/** A subscription turned off, then `count` changes it misses (recorded `skipped`); its deliveries, oldest first. */
async function missedWhileOff(r: Receiver, count: number, prefix: string) {
  const watched = await watchedTicket(r, ['ticket.updated']);
  const hook = watched.hooks[0]!;
  expect(
    (await call('PATCH', `${WEBHOOKS}/${hook.id}`, { token: watched.token, body: { enabled: false } })).status,
  ).toBe(200);
  for (let n = 0; n < count; n++) await editTicket(watched.token, watched.ticket.id, { chipNumber: `${prefix}-${n}` });
  const skipped = await eventually(webhooks.workers, async () => {
    const all = await byChip(watched.token, hook.id);
    expect(all.map((d) => d.status)).toEqual(Array(count).fill('skipped'));
    return all;
  });
  return { ...watched, hook, skipped };
}

describe('a receiver down for a stretch', () => {
  it(
    'catches up with one call: the range’s deliveries sent once each, nothing outside it, and a second call sends nothing more',
    async () => {
      const r = await webhooks.receiver();
      const { token, ticket, hooks } = await watchedTicket(r, ['ticket.updated']);
      const hook = hooks[0]!;
      await webhooks.workers.stopDispatcher();
      let from: string;
      let to: string;
      try {
        // Down: every request answered 500. The first change is attempted at once (and marks the subscription
        // failing); the next ones are queued for the dispatcher.
        r.answers.push(...Array(20).fill(500));
        await editTicket(token, ticket.id, { chipNumber: 'C-0' });
        await eventually(webhooks.workers, async () =>
          expect(await byChip(token, hook.id)).toMatchObject([{ status: 'pending', attempts: 1 }]),
        );
        await pause(20);
        from = new Date().toISOString();
        await pause(20);
        for (const chip of ['C-1', 'C-2', 'C-3']) await editTicket(token, ticket.id, { chipNumber: chip });
        await pause(20);
        to = new Date().toISOString();
        await pause(20);
        await editTicket(token, ticket.id, { chipNumber: 'C-4' });
        await eventually(webhooks.workers, async () => expect(await byChip(token, hook.id)).toHaveLength(5));
        // Past the retry window (the tests' 60 s): the dispatcher's attempts give them up, and the subscription,
        // failing for the whole window, is turned off (its later attempts then end cancelled).
        await eventually(webhooks.workers, async () => {
          await atTime(Date.now() + 61_000, () => webhooks.workers.dispatch());
          const statuses = (await byChip(token, hook.id)).map((d) => d.status);
          expect(statuses.every((s) => s === 'dead' || s === 'cancelled')).toBe(true);
        });
      } finally {
        webhooks.workers.startDispatcher();
      }
      r.answers.length = 0; // back up: 204 from now on
      const settled = await byChip(token, hook.id);
      const sentBefore = r.received.length;

      // Still off: 409, nothing queued.
      const refused = await redeliver(token, hook.id, { from, to });
      expect(refused.status, refused.raw).toBe(409);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.body.reason).toBe('webhook_disabled');
      expect(await byChip(token, hook.id)).toEqual(settled);

      expect((await call('PATCH', `${WEBHOOKS}/${hook.id}`, { token, body: { enabled: true } })).status).toBe(200);
      await webhooks.workers.stopDispatcher();
      try {
        const first = await redeliver(token, hook.id, { from, to });
        expect(first.status, first.raw).toBe(202);
        expect(first.body.data).toEqual({ queued: 3, alreadyQueued: 0, refused: 0, next: null });
        const queued = await byChip(token, hook.id);
        // The range's three are due at one instant (so the dispatcher takes them oldest first); the rest untouched.
        expect(queued.slice(1, 4).map((d) => d.status)).toEqual(['pending', 'pending', 'pending']);
        expect(new Set(queued.slice(1, 4).map((d) => d.nextAttemptAt)).size).toBe(1);
        expect([queued[0], queued[4]]).toEqual([settled[0], settled[4]]);
        // Called again before the dispatcher ran: they are pending already, nothing is queued twice.
        const again = await redeliver(token, hook.id, { from, to });
        expect(again.body.data).toEqual({ queued: 0, alreadyQueued: 3, refused: 0, next: null });
      } finally {
        webhooks.workers.startDispatcher();
      }
      await eventually(webhooks.workers, () => expect(chips(r, sentBefore).sort()).toEqual(['C-1', 'C-2', 'C-3']));
      await webhooks.workers.dispatch();
      await pause(200);
      await webhooks.workers.dispatch();
      // Exactly the range's, once each, each with its delivery's webhook-id; the others stay as they were.
      expect(chips(r, sentBefore).sort()).toEqual(['C-1', 'C-2', 'C-3']);
      const after = await byChip(token, hook.id);
      expect(
        r.received
          .slice(sentBefore)
          .map((m) => m.headers['webhook-id'])
          .sort(),
      ).toEqual(after.slice(1, 4).map((d) => d.messageId));
      expect(after.map((d) => d.status)).toEqual([
        settled[0]!.status,
        'delivered',
        'delivered',
        'delivered',
        settled[4]!.status,
      ]);
    },
    LIMIT_MS,
  );
});

describe('what a disabled subscription missed', () => {
  it(
    'is replayed once it is on again, page by page past the per-call limit, each call reading a bounded number of items',
    async () => {
      const r = await webhooks.receiver();
      const from = new Date(Date.now() - 1000).toISOString();
      const { token, hook, skipped } = await missedWhileOff(r, 5, 'S');
      const to = new Date(Date.now() + 1000).toISOString();
      expect((await redeliver(token, hook.id, { from, to })).body.reason).toBe('webhook_disabled');
      expect((await call('PATCH', `${WEBHOOKS}/${hook.id}`, { token, body: { enabled: true } })).status).toBe(200);

      await webhooks.workers.stopDispatcher();
      webhooks.workers.pauseConsumer();
      const pages: unknown[] = [];
      try {
        let continueFrom: string | undefined;
        do {
          const { result, reads } = await countReads(() =>
            redeliver(token, hook.id, { from, to, limit: 2, ...(continueFrom ? { continueFrom } : {}) }),
          );
          expect(result.status, result.raw).toBe(202);
          pages.push(result.body.data);
          continueFrom = result.body.data.next ?? undefined;
          // One more delivery than the limit at most (whether there is a next page), besides single-item reads.
          expect(reads.byCommand.ScanCommand ?? 0).toBe(0);
          expect(reads.queriesWithoutLimit).toBe(0);
          expect(reads.itemsRead).toBeLessThanOrEqual(2 + 1 + (reads.byCommand.GetItemCommand ?? 0));
        } while (continueFrom && pages.length < 10);
      } finally {
        webhooks.workers.resumeConsumer();
        webhooks.workers.startDispatcher();
      }
      const ids = skipped.map((d) => d.id);
      expect(pages).toEqual([
        { queued: 2, alreadyQueued: 0, refused: 0, next: ids[1] },
        { queued: 2, alreadyQueued: 0, refused: 0, next: ids[3] },
        { queued: 1, alreadyQueued: 0, refused: 0, next: null },
      ]);
      await eventually(webhooks.workers, () => expect(chips(r).sort()).toEqual(['S-0', 'S-1', 'S-2', 'S-3', 'S-4']));
      await pause(200);
      await webhooks.workers.dispatch();
      expect(chips(r)).toHaveLength(5);
      expect((await byChip(token, hook.id)).map((d) => [d.status, d.attempts])).toEqual(
        Array(5).fill(['delivered', 1]),
      );
    },
    LIMIT_MS,
  );

  it(
    'recorded for another url is refused, as a single retry is: nothing reaches the new url',
    async () => {
      const r = await webhooks.receiver();
      const elsewhere = await webhooks.receiver();
      const from = new Date(Date.now() - 1000).toISOString();
      const { token, hook } = await missedWhileOff(r, 2, 'A');
      const to = new Date(Date.now() + 1000).toISOString();
      const aimed = await call('PATCH', `${WEBHOOKS}/${hook.id}`, {
        token,
        body: { url: elsewhere.url, enabled: true },
      });
      expect(aimed.status, aimed.raw).toBe(200);
      const answer = await redeliver(token, hook.id, { from, to });
      expect(answer.body.data).toEqual({ queued: 0, alreadyQueued: 0, refused: 2, next: null });
      await webhooks.workers.dispatch();
      expect(elsewhere.received.length + elsewhere.unverified).toBe(0);
      expect((await byChip(token, hook.id)).map((d) => d.status)).toEqual(['skipped', 'skipped']);
    },
    LIMIT_MS,
  );
});

describe('a delivery an attempt holds', () => {
  it(
    'is left to that attempt: not queued again, not sent twice',
    async () => {
      const r = await webhooks.receiver();
      const { token, ticket, hooks } = await watchedTicket(r, ['ticket.updated']);
      const hook = hooks[0]!;
      const from = new Date(Date.now() - 1000).toISOString();
      await editTicket(token, ticket.id, { chipNumber: 'H-1' });
      const [delivered] = await eventually(webhooks.workers, async () => {
        const all = await byChip(token, hook.id);
        expect(all).toMatchObject([{ status: 'delivered', attempts: 1 }]);
        return all;
      });
      const to = new Date(Date.now() + 1000).toISOString();
      await webhooks.workers.stopDispatcher();
      try {
        // A retry by hand whose attempt hangs at the receiver (until the tests' 1 s limit) holds the delivery.
        r.answers.push('hang');
        const retry = call('POST', `${WEBHOOKS}/${hook.id}/deliveries/${delivered!.id}/retry`, { token });
        for (let n = 0; n < 200 && r.received.length < 2; n++) await pause(10);
        expect(r.received).toHaveLength(2);
        const every = ['dead', 'cancelled', 'skipped', 'pending'];
        const answer = await redeliver(token, hook.id, { from, to, statuses: every });
        expect(answer.body.data).toEqual({ queued: 0, alreadyQueued: 1, refused: 0, next: null });
        const retried = await retry;
        // The holder's outcome is the one recorded; the message went out twice in all (first, and the retry).
        expect(retried.body.data).toMatchObject({ attempts: 2, lastError: expect.stringMatching(/no answer within/) });
        expect(chips(r)).toEqual(['H-1', 'H-1']);
      } finally {
        webhooks.workers.startDispatcher();
      }
    },
    LIMIT_MS,
  );
});

describe('refusals', () => {
  it(
    '400 problem+json for a range it cannot take, nothing changed',
    async () => {
      const r = await webhooks.receiver();
      const from = new Date(Date.now() - 1000).toISOString();
      const { token, hook } = await missedWhileOff(r, 1, 'B');
      const to = new Date(Date.now() + 1000).toISOString();
      expect((await call('PATCH', `${WEBHOOKS}/${hook.id}`, { token, body: { enabled: true } })).status).toBe(200);
      const day = 86_400_000;
      const cases: [unknown, string][] = [
        [{ to }, 'body.from'],
        [{ from, to: from }, 'body.to'],
        [{ from: to, to: from }, 'body.to'],
        [{ from: new Date(Date.now() - 31 * day).toISOString(), to }, 'body.to'],
        [{ from: 'yesterday', to }, 'body.from'],
        [{ from, to, limit: 0 }, 'body.limit'],
        [{ from, to, limit: 1001 }, 'body.limit'],
        [{ from, to, statuses: [] }, 'body.statuses'],
        [{ from, to, statuses: ['failed'] }, 'body.statuses.0'],
        [{ from, to, continueFrom: 'x' }, 'body.continueFrom'],
        [{ from, to, continueFrom: '0000000000001-1-1' }, 'body.continueFrom'],
        [{ from, to, everything: true }, 'body.everything'],
      ];
      for (const [body, path] of cases) {
        const answer = await redeliver(token, hook.id, body);
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(answer.body.errors.map((e: { path: string }) => e.path)).toContain(path);
      }
      expect((await byChip(token, hook.id)).map((d) => d.status)).toEqual(['skipped']);
    },
    LIMIT_MS,
  );

  it(
    "404 for a subscription outside the caller's events, or none",
    async () => {
      const r = await webhooks.receiver();
      const { token, hook } = await missedWhileOff(r, 1, 'N');
      const other = await seedEvent();
      const outsider = await staffToken(
        await makeAdmin({ permissions: ['webhooks:manage', 'tickets:read'], eventScope: [other.id] }),
      );
      const body = { from: new Date(Date.now() - 60_000).toISOString(), to: new Date(Date.now() + 1000).toISOString() };
      for (const [caller, id] of [
        [outsider, hook.id],
        [token, 999_999_999],
      ] as const) {
        const answer = await redeliver(caller, id, body);
        expect(answer.status).toBe(404);
        expect(answer.body.detail).toBe(`Webhook ${id} not found.`);
      }
      expect((await byChip(token, hook.id)).map((d) => d.status)).toEqual(['skipped']);
    },
    LIMIT_MS,
  );
});
