import { db } from '#shared/data/client';

/**
 * Counts what the code under test asks of DynamoDB, per command: calls, items read
 * (a Query's or Scan's `ScannedCount`, the items a GetItem / BatchGetItem / TransactGetItems
 * answered) and the read capacity DynamoDB reports (`ReturnConsumedCapacity: TOTAL` is
 * added to reads). An SDK middleware on the one shared DocumentClient, so requests made
 * in-process through test/support/api.ts `call()` are counted; tests assert bounds on
 * these numbers, never on time.
 */
export interface DynamoReads {
  calls: number;
  byCommand: Record<string, number>;
  /** Index or table items DynamoDB read (before any filter), summed. */
  itemsRead: number;
  /** Queries sent without a `Limit` (every request-path Query must send one). */
  queriesWithoutLimit: number;
  readCapacity: number;
}

const READS = new Set(['QueryCommand', 'ScanCommand', 'GetItemCommand', 'BatchGetItemCommand', 'TransactGetItemsCommand']);
let current: DynamoReads | undefined;
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const tally = current;
      const command = String((context as { commandName?: string }).commandName);
      const input = args.input as Record<string, unknown>;
      if (tally && READS.has(command)) input.ReturnConsumedCapacity ??= 'TOTAL';
      if (tally) {
        // Counted before the answer: a refused conditional write is a call (and a request unit) too.
        tally.calls += 1;
        tally.byCommand[command] = (tally.byCommand[command] ?? 0) + 1;
      }
      const result = await next(args);
      if (!tally) return result;
      const output = result.output as Record<string, any>;
      if (command === 'QueryCommand' || command === 'ScanCommand') tally.itemsRead += Number(output.ScannedCount ?? output.Count ?? 0);
      if (command === 'QueryCommand' && input.Limit === undefined) tally.queriesWithoutLimit += 1;
      if (command === 'GetItemCommand') tally.itemsRead += output.Item ? 1 : 0;
      if (command === 'BatchGetItemCommand') for (const items of Object.values(output.Responses ?? {})) tally.itemsRead += (items as unknown[]).length;
      if (command === 'TransactGetItemsCommand') tally.itemsRead += (output.Responses ?? []).filter((r: { Item?: unknown }) => r.Item).length;
      const capacity = [output.ConsumedCapacity ?? []].flat() as { CapacityUnits?: number; ReadCapacityUnits?: number }[];
      for (const unit of capacity) tally.readCapacity += Number(unit.ReadCapacityUnits ?? unit.CapacityUnits ?? 0);
      return result;
    },
    { step: 'initialize', name: 'testDynamoReads' },
  );
}

/** Runs `work` and answers what it read. Calls must not overlap (one tally at a time). */
export async function countReads<T>(work: () => Promise<T>): Promise<{ result: T; reads: DynamoReads }> {
  install();
  if (current) throw new Error('countReads calls must not overlap.');
  const reads: DynamoReads = { calls: 0, byCommand: {}, itemsRead: 0, queriesWithoutLimit: 0, readCapacity: 0 };
  current = reads;
  try {
    return { result: await work(), reads };
  } finally {
    current = undefined;
  }
}
