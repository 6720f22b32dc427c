import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** What one measured request sent to DynamoDB: its commands, the items they read and the capacity they consumed. */
export interface DynamoTally {
  calls: number;
  itemsRead: number;
  rcu: number;
  wcu: number;
  /** The commands in the order sent, without `Command`. */
  names: string[];
}

export const emptyTally = (): DynamoTally => ({ calls: 0, itemsRead: 0, rcu: 0, wcu: 0, names: [] });

const READS = new Set(['GetItem', 'Query', 'BatchGetItem', 'TransactGetItems', 'Scan']);

/**
 * Adds every command `client` sends (asking DynamoDB for its consumed capacity) to the tally
 * that `into()` answers when the command returns: the bench's rows (scale.ts, scale-portal.ts)
 * point it at the request being measured.
 */
export function tallyDynamoCalls(client: DynamoDBDocumentClient, into: () => DynamoTally, label: string): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = (context.commandName ?? '?').replace(/Command$/, '');
      (args.input as Record<string, unknown>).ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      // The fields of every read command's output this counter looks at (each command has some of them).
      const output = result.output as {
        ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
        ScannedCount?: number;
        Count?: number;
        Item?: unknown;
        Responses?: Record<string, unknown[]> | unknown[];
      };
      const tally = into();
      tally.calls++;
      tally.names.push(name);
      const consumed = ([] as { CapacityUnits?: number }[]).concat(output.ConsumedCapacity ?? []);
      const units = consumed.reduce((sum, entry) => sum + Number(entry.CapacityUnits ?? 0), 0);
      if (READS.has(name)) tally.rcu += units;
      else tally.wcu += units;
      if (name === 'Query' || name === 'Scan') tally.itemsRead += Number(output.ScannedCount ?? output.Count ?? 0);
      else if (name === 'GetItem') tally.itemsRead += output.Item ? 1 : 0;
      else if (name === 'BatchGetItem')
        tally.itemsRead += Object.values(output.Responses ?? {}).reduce(
          (sum: number, items) => sum + (Array.isArray(items) ? items.length : 0),
          0,
        );
      else if (name === 'TransactGetItems') tally.itemsRead += Object.keys(output.Responses ?? []).length;
      return result;
    },
    { step: 'initialize', name: label },
  );
}
