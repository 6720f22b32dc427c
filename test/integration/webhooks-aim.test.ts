import { describe, expect, it, vi } from 'vitest';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { changeAdministrator, makeAdmin, removeAdministrator, staffToken } from '../support/staff.ts';
import { deliveriesOf, editTicket, eventually, subscribe, WEBHOOKS, webhookFixture } from '../support/webhooks.ts';

// Its own table with a stream, set before anything reads TABLE_NAME (the shared table has none: test/support/env.ts).
await vi.hoisted(async () => (await import('../support/env.ts')).useOwnStreamTable('aim'));

/**
 * Who a subscription delivers for (README "Webhooks"): whoever last aimed it
 * (url, events, eventIds), who must be able to read what it sends; a stored message goes only
 * to the url, and for the administrator, it was recorded for. Two administrators, as an
 * attacker inside the organisation would try it: the other's tickets never reach their url.
 */
const MANAGER = ['webhooks:manage', 'tickets:read', 'tickets:write'] as const;

const webhooks = webhookFixture();
const { receiver } = webhooks;

async function eventWithTicket() {
  const event = await seedEvent();
  const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 1);
  return { event, ticket: ticket! };
}

describe('a subscription delivers for the administrator who last aimed it', () => {
  it('refuses to aim it for an administrator without tickets:read (403, nothing changed): their url gets nothing', async () => {
    const { event, ticket } = await eventWithTicket();
    const owner = await makeAdmin({ permissions: [...MANAGER] });
    const ownerToken = await staffToken(owner);
    const theirs = await receiver();
    const hook = await subscribe(ownerToken, theirs, { events: ['ticket.updated'], eventIds: [event.id] });
    const shown = (await call('GET', `${WEBHOOKS}/${hook.id}`, { token: ownerToken })).body.data;
    expect(shown).toMatchObject({ createdBy: owner.id, actsFor: owner.id });

    const intruder = await staffToken(await makeAdmin({ permissions: ['webhooks:manage'] }));
    const mine = await receiver();
    mine.secrets.push(hook.secret);
    for (const body of [{ url: mine.url }, { events: ['ticket.updated'] }, { eventIds: [event.id] }]) {
      const patched = await call('PATCH', `${WEBHOOKS}/${hook.id}`, { token: intruder, body });
      expect(patched.status, JSON.stringify(body)).toBe(403);
      expect(patched.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    const created = await call('POST', WEBHOOKS, {
      token: intruder,
      body: { url: mine.url, events: ['ticket.updated'], eventIds: [event.id] },
    });
    expect(created.status).toBe(403);
    expect((await call('GET', `${WEBHOOKS}/${hook.id}`, { token: ownerToken })).body.data).toEqual(shown);
    // A description or `enabled` does not aim it: allowed, and the subscription still delivers for its owner.
    const described = await call('PATCH', `${WEBHOOKS}/${hook.id}`, {
      token: intruder,
      body: { description: 'renamed' },
    });
    expect(described.status).toBe(200);
    expect(described.body.data).toMatchObject({ actsFor: owner.id, url: theirs.url });

    await editTicket(ownerToken, ticket.id, { chipNumber: 'A-1' });
    await eventually(webhooks.workers, () => expect(theirs.received).toHaveLength(1));
    expect(mine.received.length + mine.unverified).toBe(0);
  });

  it('re-aimed by a colleague who may read tickets: it delivers for them, and no message stored before reaches the new url', async () => {
    const { event, ticket } = await eventWithTicket();
    const owner = await makeAdmin({ permissions: [...MANAGER] });
    const ownerToken = await staffToken(owner);
    const before = await receiver();
    const hook = await subscribe(ownerToken, before, { events: ['ticket.updated'], eventIds: [event.id] });
    await editTicket(ownerToken, ticket.id, { chipNumber: 'B-1' });
    const [delivered] = await eventually(webhooks.workers, async () => {
      const all = await deliveriesOf(ownerToken, hook.id);
      expect(all).toMatchObject([{ status: 'delivered' }]);
      return all;
    });
    // The next change fails once: it waits, pending, for the dispatcher.
    await webhooks.workers.stopDispatcher();
    let pending: Awaited<ReturnType<typeof deliveriesOf>>[number];
    const colleague = await makeAdmin({ permissions: [...MANAGER] });
    const colleagueToken = await staffToken(colleague);
    const after = await receiver();
    after.secrets.push(hook.secret);
    try {
      before.answers.push(500);
      await editTicket(ownerToken, ticket.id, { chipNumber: 'B-2' });
      pending = await eventually(webhooks.workers, async () => {
        const [latest] = await deliveriesOf(ownerToken, hook.id);
        expect(latest).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 500 });
        return latest!;
      });
      const aimed = await call('PATCH', `${WEBHOOKS}/${hook.id}`, { token: colleagueToken, body: { url: after.url } });
      expect(aimed.status).toBe(200);
      expect(aimed.body.data).toMatchObject({ url: after.url, createdBy: owner.id, actsFor: colleague.id });
      expect((await call('GET', `${WEBHOOKS}/${hook.id}`, { token: ownerToken })).body.data.actsFor).toBe(colleague.id);

      // A retry by hand of what was recorded for the old url is refused, clearly, and sends nothing.
      for (const old of [delivered!, pending]) {
        const retried = await call('POST', `${WEBHOOKS}/${hook.id}/deliveries/${old.id}/retry`, {
          token: colleagueToken,
        });
        expect(retried.status).toBe(409);
        expect(retried.body.reason).toBe('webhook_reaimed');
      }
      await webhooks.workers.dispatch();
    } finally {
      webhooks.workers.startDispatcher();
    }
    // The dispatcher does not send the pending one there either: cancelled, saying why.
    await eventually(webhooks.workers, async () => {
      const again = (await deliveriesOf(ownerToken, hook.id)).find((d) => d.id === pending.id);
      expect(again).toMatchObject({ status: 'cancelled', attempts: 1 });
      expect(again!.lastError).toMatch(/aimed again/);
    });
    expect(after.received.length + after.unverified).toBe(0);

    // Changes from now on go to the new url, for the colleague.
    await editTicket(ownerToken, ticket.id, { chipNumber: 'B-3' });
    await eventually(webhooks.workers, () => expect(after.received).toHaveLength(1));
    expect(after.received[0]!.message.data.ticket.chipNumber).toBe('B-3');
    expect(before.received.map((m) => m.message.data.ticket.chipNumber)).toEqual(['B-1', 'B-2']);
  });
});

describe('a subscription whose administrator can no longer deliver says so', () => {
  it.each([
    [
      'loses tickets:read',
      (id: number) => changeAdministrator(id, { permissions: ['webhooks:manage'] }),
      /may no longer read tickets/,
    ],
    ['is removed', (id: number) => removeAdministrator(id), /is no longer an administrator/],
  ] as const)(
    'when that administrator %s: disabled with the reason in GET, until a colleague takes it over by aiming it',
    async (_, lose, why) => {
      const { event, ticket } = await eventWithTicket();
      const owner = await makeAdmin({ permissions: [...MANAGER] });
      const r = await receiver();
      const hook = await subscribe(await staffToken(owner), r, { events: ['ticket.updated'], eventIds: [event.id] });
      const colleague = await makeAdmin({ permissions: [...MANAGER] });
      const token = await staffToken(colleague);
      await lose(owner.id);
      await editTicket(token, ticket.id, { chipNumber: 'C-1' });
      const shown = await eventually(webhooks.workers, async () => {
        const current = (await call('GET', `${WEBHOOKS}/${hook.id}`, { token })).body.data;
        expect(current.enabled).toBe(false);
        return current;
      });
      expect(shown.disabledReason).toMatch(why);
      expect(shown.disabledReason).toContain(`its administrator (${owner.id})`);
      expect(shown.disabledReason).toMatch(/takes it over by aiming it/);
      const [missed] = await deliveriesOf(token, hook.id);
      expect(missed).toMatchObject({ status: 'cancelled', attempts: 0 });
      expect(r.received).toHaveLength(0);

      // Turned on as it is, it would act for someone who may not read: refused, nothing changed.
      const enabled = await call('PATCH', `${WEBHOOKS}/${hook.id}`, { token, body: { enabled: true } });
      expect(enabled.status).toBe(409);
      expect(enabled.body.reason).toBe('webhook_aim_lost');
      expect((await call('GET', `${WEBHOOKS}/${hook.id}`, { token })).body.data).toEqual(shown);

      const takenOver = await call('PATCH', `${WEBHOOKS}/${hook.id}`, { token, body: { url: r.url, enabled: true } });
      expect(takenOver.status).toBe(200);
      expect(takenOver.body.data).toMatchObject({ enabled: true, actsFor: colleague.id, disabledReason: null });
      await editTicket(token, ticket.id, { chipNumber: 'C-2' });
      await eventually(webhooks.workers, () => expect(r.received).toHaveLength(1));
      expect(r.received[0]!.message.data.ticket.chipNumber).toBe('C-2');
    },
  );

  it('when that administrator no longer reaches all of its events: disabled, nothing of the dropped event sent', async () => {
    const [{ event: kept, ticket: keptTicket }, { event: dropped, ticket: droppedTicket }] = [
      await eventWithTicket(),
      await eventWithTicket(),
    ];
    const owner = await makeAdmin({ permissions: [...MANAGER], eventScope: [kept.id, dropped.id] });
    const r = await receiver();
    const hook = await subscribe(await staffToken(owner), r, {
      events: ['ticket.updated'],
      eventIds: [kept.id, dropped.id],
    });
    const token = await staffToken(await makeAdmin({ permissions: [...MANAGER] }));
    await changeAdministrator(owner.id, { eventScope: [kept.id] });
    await editTicket(token, droppedTicket.id, { chipNumber: 'C-5' });
    await editTicket(token, keptTicket.id, { chipNumber: 'C-6' });
    await eventually(webhooks.workers, async () => {
      const all = await deliveriesOf(token, hook.id);
      // Cancelled at its attempt; or, read after the subscription was off, recorded as skipped.
      expect(all).toHaveLength(2);
      expect(all.map((d) => d.status)).toContain('cancelled');
      for (const d of all) expect(['cancelled', 'skipped']).toContain(d.status);
    });
    const shown = (await call('GET', `${WEBHOOKS}/${hook.id}`, { token })).body.data;
    expect(shown).toMatchObject({ enabled: false });
    expect(shown.disabledReason).toMatch(/no longer reaches all of its events/);
    expect(r.received).toHaveLength(0);
  });
});
