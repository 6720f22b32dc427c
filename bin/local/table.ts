import {
  CreateTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { TABLE_SCHEMA } from '#shared/data/table-schema';

/**
 * Creates the single table locally exactly as infra/ declares it in AWS (same keys,
 * GSIs with ALL projection, TTL attribute, stream of TABLE_SCHEMA.streamViewType).
 * Idempotent: an existing table is left alone, whatever its shape; one created before
 * the table had a stream keeps having none (and the stream poller, bin/local/stream-poller.ts,
 * refuses it), so recreate such a table (DynamoDB Local's `-inMemory` ones go with the process).
 * The default client finds DynamoDB Local through AWS_ENDPOINT_URL_DYNAMODB.
 *
 * `stream: false` leaves the stream out, for scratch tables nothing reads the stream of: in
 * DynamoDB Local a write to a stream-enabled table costs time in proportion to the stream
 * records (of all tables) written before that table was created, ~2.5 ms a write after 20,000
 * records of 500 bytes (0.2 ms for the first table's, 0.1 ms for a table without a stream).
 */
export async function createTable(
  tableName: string,
  client = new DynamoDBClient({}),
  { stream = true }: { stream?: boolean } = {},
): Promise<void> {
  const keys = (partitionKey: string, sortKey: string) => [
    { AttributeName: partitionKey, KeyType: 'HASH' as const },
    { AttributeName: sortKey, KeyType: 'RANGE' as const },
  ];
  const attributes = [
    TABLE_SCHEMA.partitionKey,
    TABLE_SCHEMA.sortKey,
    ...TABLE_SCHEMA.globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: keys(TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey),
        GlobalSecondaryIndexes: TABLE_SCHEMA.globalIndexes.map((index) => ({
          IndexName: index.indexName,
          KeySchema: keys(index.partitionKey, index.sortKey),
          Projection: { ProjectionType: 'ALL' },
        })),
        ...(stream && { StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_SCHEMA.streamViewType } }),
      }),
    );
    // DynamoDB Local creates tables ACTIVE at once, so TTL can be set without waiting.
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE_SCHEMA.timeToLiveAttribute, Enabled: true },
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
}
