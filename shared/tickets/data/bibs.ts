import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';

/**
 * Bibs in use: one item per (event, bib), written and removed by the ticket's own change
 * transaction (shared/tickets/data/ticket-changes.ts) whenever the ticket starts or stops holding
 * it, so whether a bib is free is one GetItem, never a search.
 */
export async function bibHolder(eventId: number, bib: string): Promise<number | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.bib(eventId, bib), ConsistentRead: true }),
  );
  return Item ? Number(Item.ticketId) : undefined;
}
