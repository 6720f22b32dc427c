import { beforeAll, describe, expect, it } from 'vitest';
import { TICKET_UPDATE_SHARDS } from '#shared/tickets/data/ticket-records';
import type { GateListEntry, GateListPage } from '#shared/gate/domain/gate';
import { CHANGES_BUDGET, gateList } from '#shared/gate/use-cases/gate-list';
import { seedEvent } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { countReads, type DynamoReads } from '../support/dynamo-reads.ts';
import { writeTickets } from '../support/scale-tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * The admission list's read budget: `changedSince` reads at most
 * CHANGES_BUDGET update-index items an answer however many shards and granting events, and
 * pages by cursor so nothing is lost; `_limit` pages either walk. Counted, never timed.
 */
let token: string;
const GRANTING = 20;

beforeAll(async () => {
  token = await adminToken(['checkin:scan'], 737_373);
});

/** An event with `own` tickets, granted by 20 events each holding `granted` tickets that grant it and as many that do not. */
async function grantedEvent(own: number, granted: number, grantingEvents = GRANTING) {
  const since = new Date(Date.now() - 60_000).toISOString();
  const event = await seedEvent();
  const granting = await Promise.all(
    Array.from({ length: grantingEvents }, () =>
      seedEvent({
        ticketTypes: [
          { name: 'Pass', price: 10, total: 1_000, grants: [event.id] },
          { name: 'Day', price: 5, total: 1_000 },
        ],
      }),
    ),
  );
  const ownTickets = await writeTickets(event, own, () => ({ typeId: event.ticketTypes[0]!.id }));
  const passes: number[] = [];
  for (const other of granting) {
    const written = await writeTickets(other, 2 * granted, (n) => ({ typeId: other.ticketTypes[n % 2]!.id }));
    passes.push(...written.filter((_, n) => n % 2 === 0).map((record) => record.id));
  }
  return { event, since, expected: [...ownTickets.map((record) => record.id), ...passes].sort((a, b) => a - b) };
}

/** Every answer of a walk through the use case, and what each answer read. */
async function walk(eventId: number, request: { changedSince?: string; limit?: number; budget?: number }) {
  const answers: { page: GateListPage; reads: DynamoReads }[] = [];
  let cursor: string | undefined;
  do {
    const { result, reads } = await countReads(() =>
      gateList(eventId, { ...request, ...(cursor ? { cursor } : {}), eventScope: undefined }),
    );
    answers.push({ page: result, reads });
    cursor = result.next ?? undefined;
  } while (cursor);
  return answers;
}
const idsOf = (answers: { page: GateListPage }[]) =>
  answers.flatMap(({ page }) => page.data.map((entry: GateListEntry) => entry.ticketId)).sort((a, b) => a - b);

/** The reads besides the update shards: the event's grants (one Query) and their marks (one BatchGetItem). */
const besides = (granting = GRANTING) => 2 * (granting + 1);

describe('GET /gate-lists/{eventId}?changedSince= within its budget', () => {
  it('with 3 granting events (32 shards) and a budget smaller than the changes, reads at most the budget an answer and loses nothing', async () => {
    const { event, since, expected } = await grantedEvent(80, 20, 3);
    const budget = 64;
    const answers = await walk(event.id, { changedSince: since, budget });
    expect(answers.length).toBeGreaterThan(1);
    for (const { reads } of answers) {
      expect(reads.itemsRead).toBeLessThanOrEqual(budget + besides(3));
      expect(reads.queriesWithoutLimit).toBe(0);
      expect(reads.byCommand.QueryCommand).toBeLessThanOrEqual(1 + 4 * TICKET_UPDATE_SHARDS);
    }
    // Each ticket at least once (a cut may answer one twice: a device replaces by barcode), none of another event.
    expect([...new Set(idsOf(answers))]).toEqual(expected);
  }, 180_000);

  it('with the real budget, one answer of 168 shards reads at most 4,000 index items, and _limit pages it', async () => {
    const { event, since, expected } = await grantedEvent(100, 10);
    const [only, ...more] = await walk(event.id, { changedSince: since });
    expect(more).toEqual([]);
    expect(only!.reads.itemsRead).toBeLessThanOrEqual(CHANGES_BUDGET + besides());
    expect(idsOf([only!])).toEqual(expected);
    const paged = await walk(event.id, { changedSince: since, limit: 50 });
    for (const { page } of paged) expect(page.count).toBeLessThanOrEqual(50);
    expect([...new Set(idsOf(paged))]).toEqual(expected);
  }, 180_000);
});

describe('GET /gate-lists/{eventId}?_limit=', () => {
  it('pages the full walk by _limit (1 to 1,000), and refuses one outside it', async () => {
    const event = await seedEvent();
    const tickets = await writeTickets(event, 45, () => ({ typeId: event.ticketTypes[0]!.id }));
    const counts: number[] = [];
    let url = `/api/v2/gate-lists/${event.id}?_limit=20`;
    for (;;) {
      const response = await call('GET', url, { token });
      expect(response.status, response.raw).toBe(200);
      counts.push(response.body.count);
      if (!response.body.next) break;
      url = `/api/v2/gate-lists/${event.id}?_limit=20&_cursor=${encodeURIComponent(response.body.next)}`;
    }
    expect(counts).toEqual([20, 20, 5]);
    expect(tickets.length).toBe(45);
    for (const limit of ['0', '1001', 'ten']) {
      const refused = await call('GET', `/api/v2/gate-lists/${event.id}?_limit=${limit}`, { token });
      expect(refused.status).toBe(400);
      expect(refused.headers['content-type']).toBe('application/problem+json');
    }
  });
});
