import type { _Record, AttributeValue } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, AttributeValue as EventAttributeValue } from 'aws-lambda';

/**
 * A stream record as Lambda hands it to the function: attribute values in DynamoDB JSON, binaries in base64.
 * For whatever feeds the consumer records it read itself: the local poller (bin/local/stream-poller.ts) and the
 * replay of a batch the deployed mapping gave up on (replay-ticket-changes.ts).
 */
export function toEventRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const change = record.dynamodb ?? {};
  return withoutUndefined({
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    // TTL deletions: { type: 'Service', principalId: 'dynamodb.amazonaws.com' }.
    userIdentity: record.userIdentity && {
      type: record.userIdentity.Type,
      principalId: record.userIdentity.PrincipalId,
    },
    dynamodb: withoutUndefined({
      // Epoch seconds, as Lambda sends it.
      ApproximateCreationDateTime:
        change.ApproximateCreationDateTime && Math.floor(change.ApproximateCreationDateTime.getTime() / 1000),
      Keys: change.Keys && toEventImage(change.Keys),
      NewImage: change.NewImage && toEventImage(change.NewImage),
      OldImage: change.OldImage && toEventImage(change.OldImage),
      SequenceNumber: change.SequenceNumber,
      SizeBytes: change.SizeBytes,
      StreamViewType: change.StreamViewType,
    }),
  });
}

function toEventImage(image: Record<string, AttributeValue>): Record<string, EventAttributeValue> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toEventValue(value)]));
}

function toEventValue(value: AttributeValue): EventAttributeValue {
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((bytes) => Buffer.from(bytes).toString('base64')) };
  if (value.L !== undefined) return { L: value.L.map(toEventValue) };
  if (value.M !== undefined) return { M: toEventImage(value.M) };
  // S, N, SS, NS, BOOL and NULL are the same in the SDK and in the event.
  return value as EventAttributeValue;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
