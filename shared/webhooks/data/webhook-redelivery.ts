import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../data/client.ts';
import { keyCondition } from '../../data/key-conditions.ts';
import { keys } from '../../data/keys.ts';
import { fromDeliveryItem, type StoredDelivery } from './webhooks.ts';

/**
 * A subscription's deliveries whose ids lie between `ids.from` and `ids.to` (inclusive), oldest
 * first, after `page.after` (the last id of the previous page): at most `page.limit`, and `next`
 * (the last id given) when more remain. Reads at most `limit + 1` items (one more than the page
 * says whether there is a next), in as many Queries as DynamoDB's 1 MB pages need: a redelivery's
 * bound on work (POST /webhooks/{id}/deliveries/redeliver).
 */
export async function deliveriesBetween(
  webhookId: number,
  ids: { from: string; to: string },
  page: { limit: number; after?: string },
): Promise<{ items: StoredDelivery[]; next: string | null }> {
  const range = { between: [keys.delivery(webhookId, ids.from).SK, keys.delivery(webhookId, ids.to).SK] as const };
  const items: StoredDelivery[] = [];
  let start: Record<string, unknown> | undefined = page.after ? keys.delivery(webhookId, page.after) : undefined;
  do {
    const { Items, LastEvaluatedKey } = await db.send(
      new QueryCommand({
        TableName: tableName(),
        ...keyCondition(keys.webhookDeliveries(webhookId), range),
        ExclusiveStartKey: start,
        Limit: page.limit + 1 - items.length,
      }),
    );
    items.push(...(Items ?? []).map(fromDeliveryItem));
    start = LastEvaluatedKey;
  } while (start && items.length <= page.limit);
  const shown = items.slice(0, page.limit);
  return { items: shown, next: items.length > page.limit ? shown.at(-1)!.id : null };
}
