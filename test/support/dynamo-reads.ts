import { expect } from 'vitest';
import { call, type CallResult } from './api.ts';
import { commandTally } from './command-tally.ts';

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
  /** Of those, the kept list positions' items (`POS#` sort keys: blocks, spans, the spans' mark). */
  positionItemsRead: number;
  /** Queries sent without a `Limit` (every request-path Query must send one). */
  queriesWithoutLimit: number;
  readCapacity: number;
}

const READS = new Set([
  'QueryCommand',
  'ScanCommand',
  'GetItemCommand',
  'BatchGetItemCommand',
  'TransactGetItemsCommand',
]);

const tally = commandTally<DynamoReads>('testDynamoReads', async (reads, command, input, send) => {
  if (READS.has(command)) input.ReturnConsumedCapacity ??= 'TOTAL';
  // Counted before the answer: a refused conditional write is a call (and a request unit) too.
  reads.calls += 1;
  reads.byCommand[command] = (reads.byCommand[command] ?? 0) + 1;
  const result = await send();
  const output = result.output as Record<string, any>;
  if (command === 'QueryCommand' || command === 'ScanCommand')
    reads.itemsRead += Number(output.ScannedCount ?? output.Count ?? 0);
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const positions = [...Object.values(values), (input.Key as { SK?: unknown } | undefined)?.SK].some(
    (value) => typeof value === 'string' && value.startsWith('POS#'),
  );
  if (positions) reads.positionItemsRead += Number(output.ScannedCount ?? (output.Item ? 1 : 0));
  if (command === 'QueryCommand' && input.Limit === undefined) reads.queriesWithoutLimit += 1;
  if (command === 'GetItemCommand') reads.itemsRead += output.Item ? 1 : 0;
  if (command === 'BatchGetItemCommand')
    for (const items of Object.values(output.Responses ?? {})) reads.itemsRead += (items as unknown[]).length;
  if (command === 'TransactGetItemsCommand')
    reads.itemsRead += (output.Responses ?? []).filter((r: { Item?: unknown }) => r.Item).length;
  const capacity = [output.ConsumedCapacity ?? []].flat() as { CapacityUnits?: number; ReadCapacityUnits?: number }[];
  for (const unit of capacity) reads.readCapacity += Number(unit.ReadCapacityUnits ?? unit.CapacityUnits ?? 0);
  return result;
});

/** Runs `work` and answers what it read. Calls must not overlap (one tally at a time). */
export async function countReads<T>(work: () => Promise<T>): Promise<{ result: T; reads: DynamoReads }> {
  const { result, tally: reads } = await tally(
    { calls: 0, byCommand: {}, itemsRead: 0, positionItemsRead: 0, queriesWithoutLimit: 0, readCapacity: 0 },
    work,
  );
  return { result, reads };
}

/**
 * GETs a page of a list and holds it to the list bounds: answered 200, no Scan, and a
 * `Limit` on every Query. Answers the call, its body and what it read.
 */
export async function boundedGet(
  pathWithQuery: string,
  token: string,
): Promise<{ result: CallResult; body: any; reads: DynamoReads }> {
  const { result, reads } = await countReads(() => call('GET', pathWithQuery, { token }));
  expect(result.status, result.raw).toBe(200);
  expect(reads.byCommand.ScanCommand ?? 0).toBe(0);
  expect(reads.queriesWithoutLimit).toBe(0);
  return { result, body: result.body, reads };
}
