import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { allocateIds } from '#shared/data/counters';
import { newTicketCounterUpdates, newTicketItems } from '#shared/lists/writes';
import type { CreatedEvent } from '#shared/events/domain/event';
import { newTicketRecord } from '#shared/tickets/domain/new-ticket';
import { PROCESS_STATE, type TicketRecord } from '#shared/tickets/domain/ticket';
import { historyEntry } from '#shared/tickets/domain/ticket-history';
import { TICKET_SEQUENCE } from '#shared/tickets/use-cases/create-ticket';

/**
 * Many tickets fast, for the scale tests: the items and counts the create transaction
 * writes (`newTicketItems`, `newTicketCounterUpdates` in shared/tickets/data/ticket-changes.ts, the
 * same builders), batch-written 25 at a time. `shape(n)` lays each ticket's fields over a
 * fresh record of its type.
 */
export async function writeTickets(
  event: CreatedEvent,
  count: number,
  shape: (n: number) => Partial<TicketRecord> & { typeId: number },
): Promise<TicketRecord[]> {
  const first = await allocateIds(TICKET_SEQUENCE, count);
  const at = new Date().toISOString();
  const types = new Map(event.ticketTypes.map((type) => [type.id, type]));
  const records = Array.from({ length: count }, (_, n) => {
    const { typeId, ...fields } = shape(n);
    const type = types.get(typeId)!;
    return {
      ...newTicketRecord(first + n, { id: type.id, eventId: event.id, grants: type.grants }, at),
      partyMember: `Runner ${n}`,
      ...fields,
    };
  });
  const items = records.flatMap((record) =>
    newTicketItems(record, historyEntry(null, record, { actor: { kind: 'system' }, action: 'create', at })),
  );
  const batches: Record<string, unknown>[][] = [];
  for (let start = 0; start < items.length; start += 25) batches.push(items.slice(start, start + 25));
  await inParallel(batches, 32, writeBatch);
  await inParallel(newTicketCounterUpdates(records), 16, (update) => db.send(new UpdateCommand(update)));
  return records;
}

async function writeBatch(batch: Record<string, unknown>[]): Promise<void> {
  let pending: { PutRequest: { Item: Record<string, unknown> } }[] = batch.map((Item) => ({ PutRequest: { Item } }));
  while (pending.length) {
    const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
    pending = (UnprocessedItems?.[tableName()] ?? []) as typeof pending;
  }
}

async function inParallel<T>(work: T[], width: number, run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < work.length) await run(work[next++]!);
    }),
  );
}

/** A state mix like a race day: mostly active, some checked in, cancelled, pending. */
export const stateOf = (n: number) =>
  n % 10 === 0
    ? PROCESS_STATE.cancelled
    : n % 7 === 0
      ? PROCESS_STATE.checkedIn
      : n % 23 === 0
        ? PROCESS_STATE.pending
        : PROCESS_STATE.active;
