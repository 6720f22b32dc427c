/**
 * The single table's physical shape, shared by the CDK stack (infra/) and the local
 * stack (bin/local/) so both create the same table.
 *
 * Keys are upper-case `#`-joined prefixes (`SHIPPING_METHOD#12`); the GSIs are
 * overloaded: each entity documents in its repository what it writes to them.
 */
export const TABLE_SCHEMA = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Epoch seconds; DynamoDB removes expired items (reset tokens, rate windows, idempotency). */
  timeToLiveAttribute: 'expiresAt',
  /** The table's stream: webhooks need both images of a change (what changed, and from what). */
  streamViewType: 'NEW_AND_OLD_IMAGES',
  globalIndexes: [
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
    { indexName: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
    { indexName: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI4SK' },
    { indexName: 'GSI5', partitionKey: 'GSI5PK', sortKey: 'GSI5SK' },
    { indexName: 'GSI6', partitionKey: 'GSI6PK', sortKey: 'GSI6SK' },
  ],
} as const;

export type GlobalIndexName = (typeof TABLE_SCHEMA.globalIndexes)[number]['indexName'];
