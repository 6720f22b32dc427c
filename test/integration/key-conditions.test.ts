import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '#shared/data/client';
import { keyCondition } from '#shared/data/key-conditions';
import { keys } from '#shared/data/keys';

/**
 * A key prefix is sent as its BETWEEN range (shared/data/key-conditions.ts `keyCondition`): the same
 * keys as `begins_with` must come back, whatever follows the prefix, including characters
 * above U+FFFF and in U+E000–U+FFFF (where UTF-8 and UTF-16 orders disagree).
 */
describe('key conditions against DynamoDB Local', () => {
  it('a prefix range answers exactly what begins_with answers', async () => {
    const partition = keys.ticketItems(987_654_321_098);
    const sorts = [
      'SCAN#jo',
      'SCAN#joe#1',
      'SCAN#jo\u{20000}x#2',
      'SCAN#jo\uE000#3',
      'SCAN#jo\uFFFD#4',
      'SCAN#ｊｏｈｎ#5',
      'SCAN#jp#6',
      'SCAN#j#7',
      'SCAN$jo#8',
    ];
    for (const SK of sorts)
      await db.send(new PutCommand({ TableName: tableName(), Item: { PK: partition.value, SK, entity: 'KeyTest' } }));

    const viaRange = async (prefix: string) => {
      const { Items = [] } = await db.send(
        new QueryCommand({ TableName: tableName(), ...keyCondition(partition, { beginsWith: prefix }), Limit: 20 }),
      );
      return Items.map((item) => String(item.SK));
    };
    const viaBeginsWith = async (prefix: string) => {
      const { Items = [] } = await db.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': partition.value, ':prefix': prefix },
          Limit: 20,
        }),
      );
      return Items.map((item) => String(item.SK));
    };

    for (const prefix of ['SCAN#jo', 'SCAN#ｊｏ', 'SCAN#', 'SCAN#j'])
      expect(await viaRange(prefix), prefix).toEqual(await viaBeginsWith(prefix));
    expect(await viaRange('SCAN#jo')).toEqual([
      'SCAN#jo',
      'SCAN#joe#1',
      'SCAN#jo\uE000#3',
      'SCAN#jo\uFFFD#4',
      'SCAN#jo\u{20000}x#2',
    ]);
    expect(await viaRange('SCAN#ｊｏ')).toEqual(['SCAN#ｊｏｈｎ#5']);
    expect(await viaRange('SCAN#')).toHaveLength(8);
  });
});
