import { describe, expect, it } from 'vitest';
import { PROCESS_STATE, type TicketRecord } from '#shared/tickets/domain/ticket';
import {
  ALL_EVENTS_GROUPS,
  ALL_EVENTS_POSITION_SHARDS,
  PositionDelta,
  POSITION_SHARDS,
} from '#shared/lists/list-positions';

/**
 * The list across events keeps its positions under event 0, so every event's sales would write
 * them; its shards are grouped by the ticket's event instead, so each event's tickets move only
 * their group's shards and no shard is moved by the sales of every event.
 */
const record = (eventId: number, id: number) =>
  ({
    id,
    eventId,
    typeId: 1,
    teamId: null,
    customerId: null,
    processState: PROCESS_STATE.active,
    accessEvents: [],
  }) as unknown as TicketRecord;

/** Event 0's partitions a sale of `count` tickets of the event moves (`TICKET_POSITIONS#0#<shard>`). */
function allEventsShardsMoved(eventId: number, firstId: number, count: number): Set<string> {
  const delta = new PositionDelta('every');
  for (let id = firstId; id < firstId + count; id += 1) delta.listedTicket(record(eventId, id), 1);
  const partitions = delta.actions().map((action) => String(action.Update.Key.PK));
  return new Set(partitions.filter((pk) => pk.startsWith('TICKET_POSITIONS#0#')));
}

describe('the list across events, in groups of shards by event', () => {
  it("moves, for each event's sale, only its own group's shards: two events on sale at once share none", () => {
    // Interleaved ids, as containers' blocks give two events selling at once.
    const first = allEventsShardsMoved(7, 1_000, 400);
    const second = allEventsShardsMoved(8, 1_400, 400);
    expect(first.size).toBe(POSITION_SHARDS);
    expect(second.size).toBe(POSITION_SHARDS);
    expect([...first].filter((pk) => second.has(pk))).toEqual([]);
    expect(new Set([...first, ...second]).size).toBe(ALL_EVENTS_POSITION_SHARDS);
  });

  it('keeps events of one group in the same shards, so a read of every group sums them all', () => {
    const a = allEventsShardsMoved(3, 1_000, 400);
    const b = allEventsShardsMoved(3 + ALL_EVENTS_GROUPS, 5_000, 400);
    expect([...a].sort()).toEqual([...b].sort());
  });
});
