import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { Event } from '../../events/domain/event.ts';
import { eventFromItem } from '../../events/data/event-items.ts';
import { keys } from '../../data/keys.ts';

/**
 * An event's change as the table stream carries it (README "Webhooks"): every change the events routes make
 * rewrites (or deletes) the event item (`EVENT#<id>` / `EVENT`) at a new version in the transaction that writes its
 * history entry at that version (event-admin-writes.ts, event-creation.ts), as a ticket's change rewrites its record
 * (ticket-change-stream.ts). WEBHOOK_CHANGE_FILTER passes these records.
 */
export interface EventStreamChange {
  kind: 'event';
  /** The event as it was, and as the change left it: null before its creation, and after its deletion. */
  before: Event | null;
  after: Event | null;
  /** The version the change made: its history entry's (a deletion's is the one after the last stored). */
  version: number;
  sequenceNumber: string;
  committedAt: number;
}

const image = (value: Record<string, unknown> | undefined) =>
  value ? eventFromItem(unmarshall(value as Record<string, AttributeValue>)) : null;

/** The event change a stream record carries, or undefined: another item, or a rewrite without a new version (a backfill). */
export function eventChangeOf(record: DynamoDBRecord): EventStreamChange | undefined {
  const stream = record.dynamodb;
  if (!stream || !keys.isEvent(stream.Keys?.PK?.S, stream.Keys?.SK?.S)) return undefined;
  const before = image(stream.OldImage);
  const after = image(stream.NewImage);
  if (!before && !after) return undefined;
  const version = after ? (after.version ?? 1) : (before!.version ?? 1) + 1;
  if (before && after && (before.version ?? 1) >= version) return undefined;
  return {
    kind: 'event',
    before,
    after,
    version,
    sequenceNumber: stream.SequenceNumber ?? '',
    committedAt: (stream.ApproximateCreationDateTime ?? 0) * 1000,
  };
}
