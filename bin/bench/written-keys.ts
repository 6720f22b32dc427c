import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Item } from './write-pricing.ts';

/**
 * Which items a DynamoDB write command writes, from its input: what a write counter reads before and after the
 * command to price it (test/support/dynamo-writes.ts for a request, bin/bench/heat-record.ts for a whole sale).
 */
export type Key = { PK: string; SK: string };

export interface PlannedWrite {
  key: Key;
  transactional: boolean;
  conditionCheck: boolean;
}

/** A key as the command carries it: native values, or AttributeValues once marshalled. */
function plainKey(value: Item): Key {
  const native = typeof value.PK === 'object' ? (unmarshall(value as never) as Item) : value;
  return { PK: String(native.PK), SK: String(native.SK) };
}

/** The items `command` (`PutItemCommand`, `TransactWriteItemsCommand`…) writes; none for a read. */
export function plannedWrites(command: string, input: Item): PlannedWrite[] {
  const one = (source: Item, transactional = false, conditionCheck = false): PlannedWrite => ({
    key: plainKey(source),
    transactional,
    conditionCheck,
  });
  switch (command) {
    case 'PutItemCommand':
      return [one(input.Item as Item)];
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return [one(input.Key as Item)];
    case 'TransactWriteItemsCommand':
      return (input.TransactItems as Item[]).map((action) => {
        const [kind, body] = Object.entries(action)[0] as [string, Item];
        return one((body.Item ?? body.Key) as Item, true, kind === 'ConditionCheck');
      });
    case 'BatchWriteItemCommand':
      return Object.values(input.RequestItems as Record<string, Item[]>)
        .flat()
        .map((request) =>
          one(((request.PutRequest as Item | undefined)?.Item ?? (request.DeleteRequest as Item).Key) as Item),
        );
    default:
      return [];
  }
}
