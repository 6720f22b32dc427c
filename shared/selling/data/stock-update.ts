import { tableName } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';
import { SALE_SUMS, type SaleSums } from '../domain/sale-figures.ts';

/**
 * One update of a stock shard (stock.ts builds every move with it): its `SET` of `left`, `held`, `sold` on its
 * condition, and the moved tickets' sales figures added to the shard's sums (`ADD`, which starts a missing one at 0).
 */

/** A move's tickets' sales figures (domain/sale-figures.ts), signed as they change the shard's sums. */
export type WithSums = { sums?: SaleSums };

/** The attribute names an expression uses (DynamoDB refuses a name it does not). */
const namesIn = (text: string) =>
  Object.fromEntries(
    (['left', 'held', 'sold'] as const).filter((name) => text.includes(`#${name}`)).map((name) => [`#${name}`, name]),
  );

export const move = (
  typeId: number,
  shard: number,
  expression: string,
  condition: string,
  quantity: number,
  sums?: SaleSums,
) => {
  const added = sums ? SALE_SUMS.filter((name) => sums[name] !== 0) : [];
  const adds = added.length ? ` ADD ${added.map((name) => `#${name} :${name}`).join(', ')}` : '';
  return {
    Update: {
      TableName: tableName(),
      Key: keys.stock(typeId, shard),
      UpdateExpression: `${expression}${adds}`.trim(),
      ConditionExpression: condition,
      ExpressionAttributeNames: {
        ...namesIn(expression + condition),
        ...Object.fromEntries(added.map((name) => [`#${name}`, name])),
      },
      ExpressionAttributeValues: {
        ...(expression.includes(':q') || condition.includes(':q') ? { ':q': quantity } : {}),
        ...Object.fromEntries(added.map((name) => [`:${name}`, sums![name]])),
      },
    },
  };
};
