import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { TicketRecord } from '../../tickets/domain/ticket.ts';
import { fromTicketItem } from '../../tickets/data/ticket-records.ts';
import { keys } from '../../data/keys.ts';

/**
 * The table's change stream, as the webhooks read it (README "Webhooks"): the records that pass
 * WEBHOOK_CHANGE_FILTER (./webhook-change-filter.ts) for a ticket, and the old and new images give what changed.
 */
export interface TicketChange {
  kind: 'ticket';
  before: TicketRecord | null;
  after: TicketRecord;
  /** The stream record's id (Lambda's `batchItemFailures` name a DynamoDB record by its sequence number). */
  sequenceNumber: string;
  /** When the change was written (epoch ms, to the second): the same on every reading of the record. */
  committedAt: number;
}

const image = (value: Record<string, unknown> | undefined) =>
  value ? fromTicketItem(unmarshall(value as Record<string, AttributeValue>)) : null;

/**
 * The ticket change a stream record carries, or undefined when it is none: another item, or a
 * rewrite of the record that made no new version (a backfill adding index attributes).
 */
export function ticketChangeOf(record: DynamoDBRecord): TicketChange | undefined {
  const stream = record.dynamodb;
  if (!stream?.NewImage || stream.Keys?.SK?.S !== keys.ticket(0).SK) return undefined;
  const after = image(stream.NewImage)!;
  const before = image(stream.OldImage);
  if (before && before.version >= after.version) return undefined;
  return {
    kind: 'ticket',
    before,
    after,
    sequenceNumber: stream.SequenceNumber ?? '',
    committedAt: (stream.ApproximateCreationDateTime ?? 0) * 1000,
  };
}
