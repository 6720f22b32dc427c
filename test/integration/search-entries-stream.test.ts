import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { positionKey, positionPlaces } from '#shared/lists/list-positions';
import { SEARCH_BUCKET } from '#shared/lists/search-tokens';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import { handler as ticketChanges } from '../../functions/jobs/ticket-changes.ts';
import { runAs } from '../../bin/local/invoke.ts';
import { startWebhookWorkers, type WebhookWorkers } from '../../bin/local/webhook-workers.ts';
import { call, idsOf } from '../support/api.ts';
import { countWrites, describeWrites, storedItem } from '../support/dynamo-writes.ts';
import { failCalls, failures } from '../support/faults.ts';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { adminToken } from '../support/tokens.ts';

// Its own table with a stream, set before anything reads TABLE_NAME (the shared table has none: test/support/env.ts).
const tableName = await vi.hoisted(async () => (await import('../support/env.ts')).useOwnStreamTable('search'));

/**
 * A ticket's search entries through the table's stream, as deployed (shared/lists/README.md "Search entries"): the
 * ticket changes' consumer (the local poller with the mapping's filter feeding functions/jobs/ticket-changes.ts)
 * writes them after each change, off the change's transaction. A search finds a ticket once the consumer has read
 * its change and not before; an edit moves them, a deletion removes them; a record read again (a retried or replayed
 * batch, an older one included) writes nothing.
 */
let workers: WebhookWorkers;
let token: string;

beforeAll(async () => {
  workers = await startWebhookWorkers({ tableName });
  token = await adminToken(['tickets:read', 'tickets:write'], 717_301);
}, 60_000);
afterAll(() => workers.stop());

/** The event's `GET /tickets` page from `offset`: its ids and `totalCount`. */
const eventList = async (eventId: number, offset = 0) => {
  const page = await call('GET', `/api/v2/tickets?event=${eventId}&_offset=${offset}`, { token });
  expect(page.status, page.raw).toBe(200);
  return { ids: idsOf(page.body.data), totalCount: page.body.totalCount };
};

/** The event's own list's position block counting the ticket (list-positions.ts), as stored. */
const eventBlock = async (ticketId: number) => {
  const record = (await readTicketRecord(ticketId))!;
  const place = positionPlaces(record).find((at) => at.list === 'event')!;
  return (await storedItem(positionKey(place.holder, place.list, place.block, place.shard))) as Record<string, unknown>;
};

const searchIds = async (eventId: number, word: string) => {
  const page = await call('GET', `/api/v2/ticket?eventId=${eventId}&search=${encodeURIComponent(word)}`, { token });
  expect(page.status, page.raw).toBe(200);
  return idsOf(page.body.data);
};

/** An item of this file's table, strongly consistent. */
const ownItem = async (key: { PK: string; SK: string }) =>
  (await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;

/** The ticket's search tokens as stored: its token list, each token's entry found where a search reads it. */
async function storedTokens(ticketId: number): Promise<string[]> {
  const list = await ownItem(keys.ticketSearchTokens(ticketId));
  const tokens = [...((list?.tokens ?? []) as string[])].sort();
  for (const token of tokens) {
    const entry = keys.searchEntry(Number(list!.eventId), token.slice(0, SEARCH_BUCKET), token, ticketId);
    expect(await ownItem(entry), token).toMatchObject({ ticketId });
  }
  return tokens;
}

describe("a ticket's list entries, positions and search entries, written by the stream's consumer", () => {
  it('are written once the consumer has read the change: not in its transaction, and found after', async () => {
    const event = await seedEvent();
    workers.pauseConsumer();
    let ticketId: number;
    try {
      const [ticket] = await seedTickets(
        event,
        event.ticketTypes[0]!.id,
        1,
        { partyMemberLastName: 'Quennell' },
        { consumer: false },
      );
      ticketId = ticket!.id;
      // Counted at once (its counts are in its transaction), not yet listed nor found by a word.
      expect(await storedTokens(ticketId)).toEqual([]);
      expect(await searchIds(event.id, 'quenn')).toEqual([]);
      expect(await eventList(event.id)).toEqual({ ids: [], totalCount: 1 });
    } finally {
      workers.resumeConsumer();
    }
    await workers.drain();
    expect(await storedTokens(ticketId)).toContain('quennell');
    expect(await searchIds(event.id, 'quenn')).toEqual([ticketId]);
    expect(await eventList(event.id)).toEqual({ ids: [ticketId], totalCount: 1 });
  });

  it('move with an edit and go with a deletion; a batch read again, an older one too, writes nothing', async () => {
    const event = await seedEvent();
    const [ticket] = await seedTickets(
      event,
      event.ticketTypes[0]!.id,
      1,
      { partyMemberLastName: 'Ravensworth' },
      { consumer: false },
    );
    await workers.drain();
    const handed = workers.batches.length;
    const edit = await call('PATCH', `/api/v2/tickets/${ticket!.id}`, {
      token,
      body: { data: { partyMemberLastName: 'Stellan' } },
    });
    expect(edit.status, edit.raw).toBe(200);
    // Moves of its lists and positions too: into a team, then cancelled.
    for (const data of [{ teamId: event.teams[0]!.id }, { processState: '4' }]) {
      const moved = await call('PATCH', `/api/v2/tickets/${ticket!.id}`, { token, body: { data } });
      expect(moved.status, moved.raw).toBe(200);
    }
    await workers.drain();
    expect(await storedTokens(ticket!.id)).not.toContain('ravensworth');
    expect(await searchIds(event.id, 'stell')).toEqual([ticket!.id]);
    expect(await searchIds(event.id, 'ravens')).toEqual([]);
    // Every batch since the edit, then every batch before it, handed to the consumer again: the entries stay the
    // record's, and nothing is written (the webhooks' part finds its deliveries recorded; this table has no webhooks).
    const again = [...workers.batches.slice(handed), ...workers.batches.slice(0, handed)];
    const replayed = await countWrites(async () => {
      for (const batch of again) await runAs('ticket-changes', () => ticketChanges(batch));
    });
    expect(replayed.writes.units, describeWrites(replayed.writes)).toBe(0);
    expect(await searchIds(event.id, 'stell')).toEqual([ticket!.id]);
    // Listed as its record is (cancelled), counted once in its block, under its last state.
    const cancelled = await call('GET', `/api/v2/tickets?event=${event.id}&exclude_process_states=0,1,2,3`, { token });
    expect(idsOf(cancelled.body.data)).toEqual([ticket!.id]);
    expect(await eventList(event.id)).toEqual({ ids: [ticket!.id], totalCount: 1 });
    const block = await eventBlock(ticket!.id);
    expect([block.s4, block.s1]).toEqual([1, 0]);
    const team = await call('GET', `/api/v2/tickets?event=${event.id}&teams=${event.teams[0]!.id}&_offset=0`, {
      token,
    });
    expect(team.body).toMatchObject({ totalCount: 1, data: [{ id: ticket!.id }] });
    const gone = await call('DELETE', `/api/v2/tickets/${ticket!.id}`, { token });
    expect(gone.status, gone.raw).toBeLessThan(300);
    await workers.drain();
    expect(await storedTokens(ticket!.id)).toEqual([]);
  });

  it('that cannot be written fail the batch from its first change; its retry writes them', async () => {
    const event = await seedEvent();
    workers.pauseConsumer();
    try {
      const [ticket] = await seedTickets(
        event,
        event.ticketTypes[0]!.id,
        1,
        { partyMemberLastName: 'Ulverston' },
        { consumer: false },
      );
      // The ticket's record as the stream carries it.
      const record: DynamoDBRecord = {
        eventName: 'INSERT',
        dynamodb: {
          Keys: marshall(keys.ticket(ticket!.id)) as never,
          NewImage: marshall(await storedItem(keys.ticket(ticket!.id))) as never,
          SequenceNumber: `${ticket!.id}`,
        },
      };
      const fault = failCalls(db, { commands: ['BatchWriteItemCommand'], error: failures.dynamoInternal });
      try {
        const failed = await runAs('ticket-changes', () => ticketChanges({ Records: [record] }));
        expect(failed.batchItemFailures).toEqual([{ itemIdentifier: `${ticket!.id}` }]);
        expect(fault.attempts).toBeGreaterThan(0);
      } finally {
        fault.remove();
      }
      expect(await storedTokens(ticket!.id)).toEqual([]);
      // Its positions were moved before the entries' BatchWriteItem failed: the retry finds them marked and moves them
      // no further, and writes the entries.
      expect((await eventBlock(ticket!.id)).s1).toBe(1);
      expect(await eventList(event.id)).toEqual({ ids: [], totalCount: 1 });
      const retried = await runAs('ticket-changes', () => ticketChanges({ Records: [record] }));
      expect(retried.batchItemFailures).toEqual([]);
      expect(await storedTokens(ticket!.id)).toContain('ulverston');
      expect((await eventBlock(ticket!.id)).s1).toBe(1);
      expect(await eventList(event.id)).toEqual({ ids: [ticket!.id], totalCount: 1 });
    } finally {
      workers.resumeConsumer();
    }
    await workers.drain();
  });
});
