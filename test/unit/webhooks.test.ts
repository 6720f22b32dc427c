import { Webhook as Verifier } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newTicketRecord } from '#shared/tickets/domain/new-ticket';
import { TICKET_ACTIONS } from '#shared/tickets/domain/ticket-resource';
import { toTicket } from '#shared/tickets/domain/ticket-view';
import { ticketChangeMessage } from '#shared/webhooks/domain/webhook-messages';
import {
  DEFAULT_RETRY_SCHEDULE,
  judgeAttempt,
  retryAfterMs,
  retryDelay,
} from '#shared/webhooks/domain/webhook-retries';
import { signingSecrets, TICKET_EVENT_TYPES, wants } from '#shared/webhooks/domain/webhooks';
import { newSigningSecret, signatureHeaders } from '#shared/webhooks/services/webhook-signing';

const DAY = 24 * 60 * 60 * 1000;

/** The instants of every attempt of a delivery that always fails, until it is given up. */
function attemptTimes(random: () => number): number[] {
  const created = Date.parse('2026-06-14T08:00:00Z');
  const times = [created];
  for (;;) {
    const verdict = judgeAttempt(
      { status: 500 },
      { created: new Date(created).toISOString(), attempts: times.length },
      DEFAULT_RETRY_SCHEDULE,
      new Date(times.at(-1)!),
      random(),
    );
    if (verdict.kind === 'dead') return times;
    expect(verdict.kind).toBe('retry');
    times.push((verdict as { at: Date }).at.getTime());
  }
}

describe('the retry schedule', () => {
  it('retries first within a minute, then backs off exponentially to a cap, with jitter in the upper half', () => {
    expect(retryDelay(DEFAULT_RETRY_SCHEDULE, 1, 0)).toBe(15_000);
    expect(retryDelay(DEFAULT_RETRY_SCHEDULE, 1, 0.999)).toBeLessThanOrEqual(30_000);
    expect(retryDelay(DEFAULT_RETRY_SCHEDULE, 2, 0)).toBe(30_000);
    expect(retryDelay(DEFAULT_RETRY_SCHEDULE, 5, 0.5)).toBe(360_000);
    expect(retryDelay(DEFAULT_RETRY_SCHEDULE, 40, 1)).toBe(DEFAULT_RETRY_SCHEDULE.capMs);
  });

  it('keeps trying for at least 3 days, whatever the jitter draws, and not much longer', () => {
    for (const draw of [() => 0, () => 0.999, Math.random]) {
      const times = attemptTimes(draw);
      const span = times.at(-1)! - times[0]!;
      expect(times[1]! - times[0]!).toBeLessThan(60_000);
      expect(span).toBe(3 * DAY);
      expect(times.length).toBeGreaterThan(15);
    }
  });

  it('judges 2xx delivered, 410 gone, and redirects, other statuses and network failures as retries', () => {
    const delivery = { created: new Date().toISOString(), attempts: 1 };
    const judge = (answer: { status: number } | { error: string }) =>
      judgeAttempt(answer, delivery, DEFAULT_RETRY_SCHEDULE, new Date(), 0.5).kind;
    expect([200, 204, 299].map((status) => judge({ status }))).toEqual(['delivered', 'delivered', 'delivered']);
    expect(judge({ status: 410 })).toBe('gone');
    expect([301, 302, 400, 404, 429, 500, 503].map((status) => judge({ status }))).toEqual(Array(7).fill('retry'));
    expect(judge({ error: 'timeout' })).toBe('retry');
  });
});

describe('Retry-After', () => {
  const at = new Date('2026-06-14T08:00:00Z');
  const delivery = { created: at.toISOString(), attempts: 1 };
  const waitMs = (answer: { status: number; retryAfter?: string }) => {
    const verdict = judgeAttempt(answer, delivery, DEFAULT_RETRY_SCHEDULE, at, 0);
    return verdict.kind === 'retry' ? verdict.at.getTime() - at.getTime() : undefined;
  };

  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterMs('120', at)).toBe(120_000);
    expect(retryAfterMs(' 5 ', at)).toBe(5_000);
    expect(retryAfterMs('Sun, 14 Jun 2026 08:10:00 GMT', at)).toBe(600_000);
    expect(retryAfterMs('Sun, 14 Jun 2026 07:00:00 GMT', at)).toBe(0);
    for (const bad of [undefined, '', '-5', '1.5', 'soon', '12345678901'])
      expect(retryAfterMs(bad, at)).toBeUndefined();
  });

  it('waits as a 429 or 503 asks, never sooner than the schedule, never longer than its cap; other statuses ignore it', () => {
    const own = retryDelay(DEFAULT_RETRY_SCHEDULE, 1, 0);
    expect(waitMs({ status: 503 })).toBe(own);
    expect(waitMs({ status: 429, retryAfter: '3600' })).toBe(3_600_000);
    expect(waitMs({ status: 503, retryAfter: '1' })).toBe(own);
    expect(waitMs({ status: 429, retryAfter: String(30 * 24 * 3600) })).toBe(DEFAULT_RETRY_SCHEDULE.capMs);
    expect(waitMs({ status: 500, retryAfter: '3600' })).toBe(own);
    // The window's end still gives it up.
    const late = { created: new Date(at.getTime() - 3 * DAY + 60_000).toISOString(), attempts: 20 };
    const verdict = judgeAttempt({ status: 429, retryAfter: '3600' }, late, DEFAULT_RETRY_SCHEDULE, at, 0);
    expect(verdict).toEqual({ kind: 'retry', at: new Date(at.getTime() + 60_000) });
  });
});

describe('which subscriptions want a change', () => {
  const webhook = { enabled: true, events: ['ticket.checked_in' as const], eventIds: [7, 9] };
  it('by type, by the ticket’s own event or an event it admits to, and only when enabled', () => {
    expect(wants(webhook, 'ticket.checked_in', [7])).toBe(true);
    expect(wants(webhook, 'ticket.checked_in', [3, 9])).toBe(true);
    expect(wants(webhook, 'ticket.checked_in', [3])).toBe(false);
    expect(wants(webhook, 'ticket.updated', [7])).toBe(false);
    expect(wants({ ...webhook, enabled: false }, 'ticket.checked_in', [7])).toBe(false);
    expect(wants({ ...webhook, eventIds: null }, 'ticket.checked_in', [3])).toBe(true);
  });
});

describe('signatures', () => {
  it('verify with the standardwebhooks package, with each secret while a rotated one still signs', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const at = new Date();
    const secrets = signingSecrets(
      { secrets: [{ secret: current }, { secret: previous, expiresAt: new Date(at.getTime() + DAY).toISOString() }] },
      at,
    );
    expect(secrets).toEqual([current, previous]);
    const clear = secrets as string[]; // stored plain here: the table's sealed ones are opened first (deliveries.ts)
    const body = JSON.stringify({ type: 'webhook.ping', timestamp: at.toISOString(), data: { webhookId: 1 } });
    const headers = signatureHeaders('msg_1_x', at, body, clear);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of clear) expect(new Verifier(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Verifier(newSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Verifier(current).verify(`${body} `, headers)).toThrow();
  });

  it('drop a rotated-out secret after its 24 hours', () => {
    const at = new Date('2026-06-14T08:00:00Z');
    const webhook = { secrets: [{ secret: 'whsec_new' }, { secret: 'whsec_old', expiresAt: '2026-06-14T07:59:59Z' }] };
    expect(signingSecrets(webhook, at)).toEqual(['whsec_new']);
  });
});

describe('a ticket change message', () => {
  const record = { ...newTicketRecord(5, { id: 2, eventId: 3, grants: [] }, '2026-06-14T07:00:00.000Z'), version: 1 };
  it('names each changed field with its previous value, and carries the version as its sequence', () => {
    const after = { ...record, bibNumber: '4471', chipNumber: 'C-9', updated: '2026-06-14T08:00:00.000Z', version: 2 };
    const message = ticketChangeMessage(
      { action: 'edit', at: after.updated, version: 2 },
      toTicket(record),
      toTicket(after),
    );
    expect(message.type).toBe('ticket.updated');
    expect(message.data).toMatchObject({ ticketId: 5, eventId: 3, sequence: 2 });
    expect(message.data.changed).toEqual(['bibNumber', 'chipNumber', 'updated']);
    expect(message.data.previous).toEqual({ bibNumber: null, chipNumber: null, updated: record.updated });
    expect(message.data.ticket).toEqual(toTicket(after));
  });

  it('of a created ticket has nothing changed', () => {
    const message = ticketChangeMessage({ action: 'create', at: record.created, version: 1 }, null, toTicket(record));
    expect(message).toMatchObject({ type: 'ticket.created', data: { changed: [], previous: {}, sequence: 1 } });
  });

  it('has one type per history action, each distinct', () => {
    const actions = TICKET_ACTIONS;
    const types = actions.map((action) => TICKET_EVENT_TYPES[action]);
    expect(new Set(types).size).toBe(actions.length);
    expect(types.every((type) => /^ticket\.[a-z_]+$/.test(type))).toBe(true);
  });
});

describe('an attempt inside a request', () => {
  it('waits for its receiver 3 s of the route function’s 10 s at the deployed settings, and holds its claim no longer than that function can run', async () => {
    // The unit project sets no WEBHOOK_* variable: the defaults are the deployed contract (webhook-settings.ts).
    const { attemptTimeoutMs, requestAttemptTimeoutMs, requestClaimMs, ROUTE_FUNCTION_TIMEOUT_MS } = await import(
      '#shared/webhooks/services/webhook-settings'
    );
    expect(attemptTimeoutMs).toBe(10_000);
    expect(requestAttemptTimeoutMs).toBe(3_000);
    // With the secret's read and the delivery's writes, well within half the function's timeout.
    expect(requestAttemptTimeoutMs).toBeLessThanOrEqual(ROUTE_FUNCTION_TIMEOUT_MS * 0.3);
    expect(requestClaimMs).toBeGreaterThan(ROUTE_FUNCTION_TIMEOUT_MS);
    expect(requestClaimMs).toBeLessThan(attemptTimeoutMs + 60_000);
  });
});
