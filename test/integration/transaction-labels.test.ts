import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, labelled, tableName, TransactionCancelled, transactWrite } from '#shared/data/client';

/**
 * Which condition of a cancelled transaction failed is read by the actions' labels (shared/data/client.ts
 * `labelled`), whatever their positions; the labels themselves are never sent.
 */
const put = (PK: string, condition?: string) => ({
  Put: {
    TableName: tableName(),
    Item: { PK, SK: 'LABEL_TEST', n: 1 },
    ...(condition ? { ConditionExpression: condition } : {}),
  },
});

const cancelled = (actions: Parameters<typeof transactWrite>[0]) =>
  transactWrite(actions).then(
    () => undefined,
    (error: unknown) => error,
  );

describe('labelled transaction actions', () => {
  it('sends labelled actions as built, and writes them', async () => {
    const PK = `LABEL_TEST#${randomUUID()}`;
    await transactWrite([labelled('first', put(PK, 'attribute_not_exists(PK)'))]);
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: { PK, SK: 'LABEL_TEST' } }));
    expect(Item).toEqual({ PK, SK: 'LABEL_TEST', n: 1 });
  });

  it('names the failed condition by its label wherever the action sits, and no other', async () => {
    const taken = `LABEL_TEST#${randomUUID()}`;
    await transactWrite([put(taken)]);
    const fresh = () => `LABEL_TEST#${randomUUID()}`;
    for (const order of [0, 1, 2]) {
      const actions = [
        labelled('free', put(fresh(), 'attribute_not_exists(PK)')),
        put(fresh(), 'attribute_not_exists(PK)'),
      ];
      actions.splice(order, 0, labelled('taken', put(taken, 'attribute_not_exists(PK)')));
      const error = await cancelled(actions);
      expect(error).toBeInstanceOf(TransactionCancelled);
      const failed = error as TransactionCancelled;
      expect(failed.conditionFailed('taken')).toBe(true);
      expect(failed.conditionFailed('free')).toBe(false);
      expect(failed.anyConditionFailed).toBe(true);
    }
  });

  it('counts an unlabelled failure as some condition failed, naming no label', async () => {
    const taken = `LABEL_TEST#${randomUUID()}`;
    await transactWrite([put(taken)]);
    const error = (await cancelled([
      labelled('free', put(`LABEL_TEST#${randomUUID()}`, 'attribute_not_exists(PK)')),
      put(taken, 'attribute_not_exists(PK)'),
    ])) as TransactionCancelled;
    expect(error.conditionFailed('free')).toBe(false);
    expect(error.anyConditionFailed).toBe(true);
  });
});
