import { describe, expect, it, vi } from 'vitest';
import { REDELIVERY_RATE } from '#shared/webhooks/use-cases/redelivery';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { makeAdmin, staffToken } from '../support/staff.ts';
import { deliveriesOf, editTicket, eventually, subscribe, WEBHOOKS, webhookFixture } from '../support/webhooks.ts';

/**
 * Deliveries outside the caller's events look missing, and redelivery cannot flood
 * (functions/jobs/README.md "Catching up"): a subscription narrowed since keeps its older deliveries of another event,
 * which an administrator scoped to its remaining event neither lists, retries nor re-queues; a range redelivery never
 * takes `delivered` (by id only), and each subscription takes REDELIVERY_RATE calls, then 429 with Retry-After.
 */
// A table (with its stream) of this file's own: the other webhook files' dispatchers would attempt what it queues.
await vi.hoisted(async () => (await import('../support/env.ts')).useOwnStreamTable('redeliver-scope'));

const webhooks = webhookFixture();
const LIMIT_MS = 60_000;

const redeliver = (token: string, webhookId: number, body: unknown) =>
  call('POST', `${WEBHOOKS}/${webhookId}/deliveries/redeliver`, { token, body });

/**
 * An unscoped administrator's subscription to events A and B, off while a ticket of each changes (two `skipped`
 * deliveries), then narrowed to B and on again; an administrator scoped to B; the deliveries by their ticket.
 */
async function narrowedSubscription() {
  const r = await webhooks.receiver();
  const owner = await staffToken(
    await makeAdmin({ permissions: ['webhooks:manage', 'tickets:read', 'tickets:write'] }),
  );
  const [a, b] = [await seedEvent(), await seedEvent()];
  const [inA] = await seedTickets(a, a.ticketTypes[0]!.id, 1);
  const [inB] = await seedTickets(b, b.ticketTypes[0]!.id, 1);
  const hook = await subscribe(owner, r, { events: ['ticket.updated'], eventIds: [a.id, b.id] });
  expect((await call('PATCH', `${WEBHOOKS}/${hook.id}`, { token: owner, body: { enabled: false } })).status).toBe(200);
  await editTicket(owner, inA!.id, { chipNumber: 'A-1' });
  await editTicket(owner, inB!.id, { chipNumber: 'B-1' });
  const [ofA, ofB] = await eventually(webhooks.workers, async () => {
    const all = await deliveriesOf(owner, hook.id);
    expect(all.map((d) => d.status)).toEqual(['skipped', 'skipped']);
    return [all.find((d) => d.ticketId === inA!.id)!, all.find((d) => d.ticketId === inB!.id)!];
  });
  const narrowed = await call('PATCH', `${WEBHOOKS}/${hook.id}`, {
    token: owner,
    body: { eventIds: [b.id], enabled: true },
  });
  expect(narrowed.status, narrowed.raw).toBe(200);
  const scoped = await staffToken(
    await makeAdmin({ permissions: ['webhooks:manage', 'tickets:read'], eventScope: [b.id] }),
  );
  return { r, owner, scoped, hook, ofA: ofA!, ofB: ofB! };
}

const range = () => ({
  from: new Date(Date.now() - 60_000).toISOString(),
  to: new Date(Date.now() + 60_000).toISOString(),
});

describe("a delivery of a ticket outside the caller's events", () => {
  it(
    'is not listed, is 404 to a retry, and is not re-queued by a redelivery; the one of their event is',
    async () => {
      const { owner, scoped, hook, ofA, ofB } = await narrowedSubscription();
      expect((await deliveriesOf(scoped, hook.id)).map((d) => d.id)).toEqual([ofB.id]);
      expect((await deliveriesOf(owner, hook.id)).map((d) => d.id).sort()).toEqual([ofA.id, ofB.id].sort());

      const retried = await call('POST', `${WEBHOOKS}/${hook.id}/deliveries/${ofA.id}/retry`, { token: scoped });
      expect(retried.status).toBe(404);
      expect(retried.body.detail).toBe(`Delivery ${ofA.id} not found.`);

      await webhooks.workers.stopDispatcher();
      try {
        const answer = await redeliver(scoped, hook.id, range());
        expect(answer.status, answer.raw).toBe(202);
        // Only B's counted: A's is neither queued nor counted anywhere, as if it were not there.
        expect(answer.body.data).toEqual({ queued: 1, alreadyQueued: 0, refused: 0, next: null });
        const after = await deliveriesOf(owner, hook.id);
        expect(after.find((d) => d.id === ofA.id)!.status).toBe('skipped');
        expect(after.find((d) => d.id === ofB.id)!.status).toBe('pending');
      } finally {
        webhooks.workers.startDispatcher();
      }
    },
    LIMIT_MS,
  );
});

describe('redelivery cannot flood', () => {
  it(
    'takes no delivered message by range (400; by id it is sent again), and each subscription has its rate: then 429 with Retry-After, nothing changed',
    async () => {
      const { r, owner, hook, ofB } = await narrowedSubscription();
      // B's delivery sent and delivered by the dispatcher, after one call of the subscription's rate.
      expect((await redeliver(owner, hook.id, range())).body.data).toMatchObject({ queued: 2 });
      await eventually(webhooks.workers, async () =>
        expect((await deliveriesOf(owner, hook.id)).map((d) => d.status)).toEqual(['delivered', 'delivered']),
      );
      const sent = r.received.length;

      const named = await redeliver(owner, hook.id, { ...range(), statuses: ['delivered'] });
      expect(named.status).toBe(400);
      expect(named.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(named.body.errors.map((e: { path: string }) => e.path)).toContain('body.statuses.0');
      expect(r.received).toHaveLength(sent);
      const byId = await call('POST', `${WEBHOOKS}/${hook.id}/deliveries/${ofB.id}/retry`, { token: owner });
      expect(byId.body.data).toMatchObject({ id: ofB.id, status: 'delivered', attempts: 2 });

      // The rest of the rate (a 400 took none), then the refusal: the same for another administrator.
      for (let n = 1; n < REDELIVERY_RATE.calls; n++) {
        const answer = await redeliver(owner, hook.id, range());
        expect(answer.status, answer.raw).toBe(202);
        expect(answer.body.data).toMatchObject({ queued: 0 });
      }
      const other = await staffToken(await makeAdmin({ permissions: ['webhooks:manage', 'tickets:read'] }));
      const before = await deliveriesOf(owner, hook.id);
      const refused = await redeliver(other, hook.id, { ...range(), statuses: ['dead', 'pending'] });
      expect(refused.status).toBe(429);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(REDELIVERY_RATE.windowSeconds);
      expect(await deliveriesOf(owner, hook.id)).toEqual(before);
    },
    LIMIT_MS,
  );
});
