import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { TABLE_SCHEMA } from '#shared/data/table-schema';
import type { StageSettings } from './stages.ts';

/**
 * The single table, shaped by TABLE_SCHEMA (the local stack creates the same one).
 * GSIs project ALL attributes: the overloaded indexes serve lists that return whole
 * records, and a KEYS_ONLY index would cost a second read per item.
 */
export function singleTable(scope: Construct, id: string, settings: StageSettings): TableV2 {
  const key = (name: string) => ({ name, type: AttributeType.STRING });
  return new TableV2(scope, id, {
    partitionKey: key(TABLE_SCHEMA.partitionKey),
    sortKey: key(TABLE_SCHEMA.sortKey),
    globalSecondaryIndexes: TABLE_SCHEMA.globalIndexes.map((index) => ({
      indexName: index.indexName,
      partitionKey: key(index.partitionKey),
      sortKey: key(index.sortKey),
    })),
    timeToLiveAttribute: TABLE_SCHEMA.timeToLiveAttribute,
    billing: Billing.onDemand(),
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: settings.retainData,
    removalPolicy: settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });
}
