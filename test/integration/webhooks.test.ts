import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { advanceClock, resetClock } from '#shared/clock';
import { getWebhook } from '#shared/webhooks/data/webhooks';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { mailTo } from '../support/mail.ts';
import { changeAdministrator, makeAdmin, removeAdministrator, staffToken } from '../support/staff.ts';
import { checkIn, TICKETS } from '../support/tickets.ts';
import {
  deliveriesOf,
  editTicket,
  eventually,
  type Receiver,
  subscribe,
  WEBHOOKS,
  webhookFixture,
} from '../support/webhooks.ts';

// Its own table with a stream, set before anything reads TABLE_NAME (the shared table has none: test/support/env.ts).
await vi.hoisted(async () => (await import('../support/env.ts')).useOwnStreamTable('webhooks'));

/**
 * Webhooks end to end (README "Webhooks"): ticket changes made through the API, read from
 * DynamoDB Local's stream by the poller that feeds the deployed consumer's handler, delivered
 * to a receiver on 127.0.0.1 that verifies every message with the `standardwebhooks` package.
 * Every subscription here names the events its test made: the file's tests share its table.
 */
const MANAGER = ['webhooks:manage', 'tickets:read', 'tickets:write', 'checkin:scan'] as const;
/** An event no test makes (ids come from one sequence): subscriptions that must hear of no ticket change name it. */
const NO_EVENT = 2 ** 40;

let token: string;

const webhooks = webhookFixture();
const { receiver } = webhooks;

beforeAll(async () => {
  token = await staffToken(await makeAdmin({ permissions: [...MANAGER] }));
});

afterAll(() => resetClock());

async function eventWithTicket() {
  const event = await seedEvent();
  const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 1);
  return { event, ticket: ticket! };
}

/** The receiver's messages about one ticket, in arrival order. */
const about = (r: Receiver, ticketId: number) => r.received.filter((m) => m.message.data.ticketId === ticketId);

describe('a subscription receives every change, signed, once', () => {
  it('delivers a check-in and an edit with the ticket as GET shows it, what changed and the sequence', async () => {
    const { event, ticket } = await eventWithTicket();
    const r = await receiver();
    await subscribe(token, r, { events: ['ticket.checked_in', 'ticket.updated'], eventIds: [event.id] });

    expect((await checkIn(token, ticket.id)).status).toBe(200);
    await editTicket(token, ticket.id, { bibNumber: '4471' });

    const [checkedIn, updated] = await eventually(webhooks.workers, () => {
      const messages = about(r, ticket.id);
      expect(messages).toHaveLength(2);
      return messages.map((m) => m.message);
    });
    expect(r.unverified).toBe(0);
    expect(checkedIn!.type).toBe('ticket.checked_in');
    expect(updated!.type).toBe('ticket.updated');
    expect(updated!.data.changed).toContain('bibNumber');
    expect(updated!.data.previous.bibNumber).toBeNull();
    expect(updated!.data.sequence).toBe(checkedIn!.data.sequence + 1);
    const shown = await call('GET', `${TICKETS}/${ticket.id}`, { token });
    expect(updated!.data.ticket).toEqual(shown.body.data);
    // Distinct messages, each with its own id; no other type was sent (created and so on were not asked for).
    expect(new Set(about(r, ticket.id).map((m) => m.headers['webhook-id'])).size).toBe(2);
  });

  it('delivers a creation from the entry its record keeps: type, time and sequence 1', async () => {
    const event = await seedEvent();
    const r = await receiver();
    await subscribe(token, r, { events: ['ticket.created'], eventIds: [event.id] });
    const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 1);

    const [created] = await eventually(webhooks.workers, () => {
      const messages = about(r, ticket!.id);
      expect(messages).toHaveLength(1);
      return messages.map((m) => m.message);
    });
    expect(created).toMatchObject({
      type: 'ticket.created',
      timestamp: ticket!.created,
      data: { sequence: 1, changed: [], previous: {} },
    });
    expect(created!.data.ticket).toEqual((await call('GET', `${TICKETS}/${ticket!.id}`, { token })).body.data);
  });

  it('retries after a 500 and after a timeout, with the same webhook-id, and not after a 2xx', async () => {
    const { event, ticket } = await eventWithTicket();
    const r = await receiver();
    const hook = await subscribe(token, r, { events: ['ticket.checked_in'], eventIds: [event.id] });
    r.answers.push(500, 'hang');
    expect((await checkIn(token, ticket.id)).status).toBe(200);

    const delivery = await eventually(webhooks.workers, async () => {
      const [only] = await deliveriesOf(token, hook.id);
      expect(only).toMatchObject({ status: 'delivered', attempts: 3, lastStatus: 204, lastError: null });
      return only!;
    });
    // The first two reached the receiver too (the hung one timed out); all carried one message id.
    expect(r.unverified).toBe(0);
    expect(r.received.map((m) => m.headers['webhook-id'])).toEqual(Array(3).fill(delivery.messageId));
    await webhooks.workers.dispatch();
    expect(r.received).toHaveLength(3);
  });

  it('follows no redirect: a 302 is a failed attempt, retried, and its Location is never requested', async () => {
    const { event, ticket } = await eventWithTicket();
    const r = await receiver();
    const hook = await subscribe(token, r, { events: ['ticket.checked_in'], eventIds: [event.id] });
    r.answers.push(302);
    await checkIn(token, ticket.id);
    await eventually(webhooks.workers, async () => {
      expect((await deliveriesOf(token, hook.id))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    });
    expect(r.received.map((m) => m.message.type)).toEqual(['ticket.checked_in', 'ticket.checked_in']);
  });
});

describe('a subscription stops', () => {
  it('when the receiver answers 410 Gone: disabled, and nothing more is sent', async () => {
    const { event, ticket } = await eventWithTicket();
    const r = await receiver();
    const hook = await subscribe(token, r, { events: ['ticket.checked_in', 'ticket.updated'], eventIds: [event.id] });
    r.answers.push(410);
    await checkIn(token, ticket.id);
    const shown = await eventually(webhooks.workers, async () => {
      const current = await call('GET', `${WEBHOOKS}/${hook.id}`, { token });
      expect(current.body.data.enabled).toBe(false);
      return current.body.data;
    });
    expect(shown.disabledReason).toMatch(/410/);
    expect((await deliveriesOf(token, hook.id))[0]).toMatchObject({ status: 'dead', lastStatus: 410, attempts: 1 });

    await editTicket(token, ticket.id, { chipNumber: 'C-1' });
    await webhooks.workers.drain();
    await webhooks.workers.dispatch();
    expect(r.received).toHaveLength(1);
  });

  it('after DELETE: nothing more is sent, pending retries included', async () => {
    const { event, ticket } = await eventWithTicket();
    const r = await receiver();
    const hook = await subscribe(token, r, { events: ['ticket.checked_in', 'ticket.updated'], eventIds: [event.id] });
    await webhooks.workers.stopDispatcher();
    try {
      r.answers.push(500);
      await checkIn(token, ticket.id);
      await eventually(webhooks.workers, () => expect(r.received).toHaveLength(1));
      expect((await call('DELETE', `${WEBHOOKS}/${hook.id}`, { token })).status).toBe(204);
      await editTicket(token, ticket.id, { chipNumber: 'C-2' });
      await webhooks.workers.drain();
      await new Promise((resolve) => setTimeout(resolve, 500));
      await webhooks.workers.dispatch();
    } finally {
      webhooks.workers.startDispatcher();
    }
    expect(r.received).toHaveLength(1);
    expect((await call('GET', `${WEBHOOKS}/${hook.id}`, { token })).status).toBe(404);
  });

  it('after failing for the whole retry window: disabled, its creator mailed, the delivery dead', async () => {
    const { event, ticket } = await eventWithTicket();
    const creator = await makeAdmin({ permissions: [...MANAGER] });
    const creatorToken = await staffToken(creator);
    const r = await receiver();
    const hook = await subscribe(creatorToken, r, { events: ['ticket.checked_in'], eventIds: [event.id] });
    r.answers.push(...Array(200).fill(500));
    await webhooks.workers.stopDispatcher();
    try {
      await checkIn(token, ticket.id);
      await eventually(webhooks.workers, () => expect(r.received.length).toBeGreaterThanOrEqual(1));
      expect((await getWebhook(hook.id))?.failingSince).toEqual(expect.any(String));
      // The test stack's window is a minute (test/support/env.ts); deployed, 3 days.
      advanceClock(61_000);
      await webhooks.workers.dispatch();
    } finally {
      resetClock();
      webhooks.workers.startDispatcher();
    }
    const shown = (await call('GET', `${WEBHOOKS}/${hook.id}`, { token: creatorToken })).body.data;
    expect(shown).toMatchObject({ enabled: false, disabledReason: 'every delivery failed for 1 minute' });
    expect((await deliveriesOf(creatorToken, hook.id))[0]).toMatchObject({ status: 'dead', lastStatus: 500 });
    const [mail] = await mailTo(creator.email);
    expect(mail?.subject).toMatch(new RegExp(`Webhook ${hook.id} is disabled`));
  });
});

describe('permissions at delivery time', () => {
  it('cancels deliveries its creator may no longer read, and never shows more than GET shows them', async () => {
    const { event, ticket } = await eventWithTicket();
    const creator = await makeAdmin({ permissions: [...MANAGER] });
    const r = await receiver();
    const hook = await subscribe(await staffToken(creator), r, { events: ['ticket.updated'], eventIds: [event.id] });
    // The creator loses tickets:read: what is sent from now on is cancelled, not delivered.
    await changeAdministrator(creator.id, { permissions: ['webhooks:manage'] });
    await editTicket(token, ticket.id, { chipNumber: 'C-3' });
    await eventually(webhooks.workers, async () => {
      const [delivery] = await deliveriesOf(token, hook.id);
      expect(delivery).toMatchObject({ status: 'cancelled', attempts: 0 });
      expect(delivery!.lastError).toMatch(/may no longer read/);
    });
    expect(r.received).toHaveLength(0);
  });

  it("stops a removed administrator's subscriptions: their deliveries are cancelled, not sent", async () => {
    const { event, ticket } = await eventWithTicket();
    const creator = await makeAdmin({ permissions: [...MANAGER] });
    const r = await receiver();
    const hook = await subscribe(await staffToken(creator), r, { events: ['ticket.updated'], eventIds: [event.id] });
    await editTicket(token, ticket.id, { chipNumber: 'C-7' });
    await eventually(webhooks.workers, async () => expect(r.received).toHaveLength(1));
    await removeAdministrator(creator.id);
    await editTicket(token, ticket.id, { chipNumber: 'C-8' });
    await eventually(webhooks.workers, async () => {
      const [latest] = await deliveriesOf(token, hook.id);
      expect(latest).toMatchObject({ status: 'cancelled', attempts: 0 });
      expect(latest!.lastError).toMatch(/no longer an administrator/);
    });
    expect(r.received).toHaveLength(1);
  });

  it('keeps an event-scoped administrator to their events', async () => {
    const [{ event: mine }, { event: other }] = [await eventWithTicket(), await eventWithTicket()];
    const scopedToken = await staffToken(await makeAdmin({ permissions: [...MANAGER], eventScope: [mine.id] }));
    const r = await receiver();
    const refused = async (eventIds: number[] | null | undefined, path: string) => {
      const answer = await call('POST', WEBHOOKS, {
        token: scopedToken,
        body: { url: r.url, events: ['ticket.updated'], eventIds },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    };
    await refused(undefined, 'body.eventIds');
    await refused(null, 'body.eventIds');
    await refused([mine.id, other.id], 'body.eventIds');
    const own = await subscribe(scopedToken, r, { events: ['ticket.updated'], eventIds: [mine.id] });
    const unscoped = await subscribe(token, await receiver(), { events: ['ticket.updated'], eventIds: [other.id] });
    expect((await call('GET', `${WEBHOOKS}/${unscoped.id}`, { token: scopedToken })).status).toBe(404);
    expect((await call('DELETE', `${WEBHOOKS}/${unscoped.id}`, { token: scopedToken })).status).toBe(404);
    const listed = await call('GET', `${WEBHOOKS}?_limit=100`, { token: scopedToken });
    expect(listed.body.data.map((w: { id: number }) => w.id)).toEqual([own.id]);
    // Patching its filter outside the scope is refused too.
    const patch = await call('PATCH', `${WEBHOOKS}/${own.id}`, { token: scopedToken, body: { eventIds: [other.id] } });
    expect(patch.status).toBe(400);
  });
});

describe('no way into our network', () => {
  const refusedUrls = [
    'http://example.com/hooks',
    'https://127.0.0.1/hooks',
    'https://10.0.0.8/hooks',
    'https://192.168.1.20/hooks',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/hooks',
    'https://[fd00:ec2::254]/hooks',
    'https://[::ffff:10.0.0.1]/hooks',
    'https://2130706433/hooks',
    'https://0x7f.0.0.1/hooks',
    'https://localhost/hooks',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://user:password@example.com/hooks',
    'http://127.0.0.2:8080/hooks',
    'ftp://example.com/hooks',
    'not a url',
  ];

  it.each(refusedUrls)('refuses %s at creation, naming url', async (url) => {
    const created = await call('POST', WEBHOOKS, {
      token,
      body: { url, events: ['ticket.updated'], eventIds: [NO_EVENT] },
    });
    expect(created.status).toBe(400);
    expect(created.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.url']);
  });

  it('refuses a private address on PATCH, and changes nothing', async () => {
    const r = await receiver();
    const hook = await subscribe(token, r, { events: ['ticket.updated'], eventIds: [NO_EVENT] });
    const patch = await call('PATCH', `${WEBHOOKS}/${hook.id}`, { token, body: { url: 'https://10.1.2.3/x' } });
    expect(patch.status).toBe(400);
    expect(patch.body.errors[0].path).toBe('body.url');
    expect((await call('GET', `${WEBHOOKS}/${hook.id}`, { token })).body.data.url).toBe(r.url);
  });
});

describe('observable and repairable', () => {
  it('pings, lists deliveries newest first by cursor, and sends one again on request', async () => {
    const r = await receiver();
    const hook = await subscribe(token, r, { events: ['ticket.updated'], eventIds: [NO_EVENT] });
    const pinged: string[] = [];
    for (let n = 0; n < 5; n++) {
      const ping = await call('POST', `${WEBHOOKS}/${hook.id}/ping`, { token });
      expect(ping.status).toBe(200);
      expect(ping.body.data).toMatchObject({ type: 'webhook.ping', status: 'delivered', attempts: 1, lastStatus: 204 });
      pinged.push(ping.body.data.id);
    }
    expect(r.received.map((m) => m.message)).toEqual(
      pinged.map(() => expect.objectContaining({ type: 'webhook.ping', data: { webhookId: hook.id } })),
    );

    const walked: string[] = [];
    let cursor = '';
    for (let page = 0; page < 5; page++) {
      const answer = await call(
        'GET',
        `${WEBHOOKS}/${hook.id}/deliveries?_limit=2${cursor ? `&_cursor=${cursor}` : ''}`,
        { token },
      );
      expect(answer.status).toBe(200);
      walked.push(...answer.body.data.map((d: { id: string }) => d.id));
      if (!answer.body.next) break;
      cursor = answer.body.next;
    }
    expect(walked).toEqual([...pinged].reverse());

    const again = await call('POST', `${WEBHOOKS}/${hook.id}/deliveries/${pinged[0]}/retry`, { token });
    expect(again.body.data).toMatchObject({ id: pinged[0], status: 'delivered', attempts: 2 });
    expect(r.received.at(-1)!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    const unknown = await call('POST', `${WEBHOOKS}/${hook.id}/deliveries/0000000000000-ping-00000000/retry`, {
      token,
    });
    expect(unknown.status).toBe(404);
  });

  it('keeps no secret for a replay: the same Idempotency-Key answers the subscription without it', async () => {
    const r = await receiver();
    const body = { url: r.url, events: ['ticket.updated'], eventIds: [NO_EVENT] };
    const headers = { 'idempotency-key': `webhook-${NO_EVENT}-${r.url}` };
    const first = await call('POST', WEBHOOKS, { token, body, headers });
    expect(first.status).toBe(201);
    expect(first.body.data.secret).toMatch(/^whsec_/);
    const replayed = await call('POST', WEBHOOKS, { token, body, headers });
    expect(replayed.status).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    const { secret: _, ...withoutSecret } = first.body.data;
    expect(replayed.body.data).toEqual(withoutSecret);
    expect(replayed.raw).not.toContain('whsec_');
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const r = await receiver();
    const hook = await subscribe(token, r, { events: ['ticket.updated'], eventIds: [NO_EVENT] });
    const rotated = await call('POST', `${WEBHOOKS}/${hook.id}/rotate-secret`, { token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).not.toBe(hook.secret);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    // The receiver knows only the new secret now: a message verifies with it, and still with the old one.
    r.secrets.splice(0, r.secrets.length, rotated.body.data.secret);
    await call('POST', `${WEBHOOKS}/${hook.id}/ping`, { token });
    r.secrets.splice(0, r.secrets.length, hook.secret);
    await call('POST', `${WEBHOOKS}/${hook.id}/ping`, { token });
    expect(r.unverified).toBe(0);
    expect(r.received).toHaveLength(2);
    expect(r.received[0]!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    // The list and the subscription never show a secret.
    const shown = await call('GET', `${WEBHOOKS}/${hook.id}`, { token });
    expect(JSON.stringify(shown.body)).not.toContain('whsec_');
  });
});
