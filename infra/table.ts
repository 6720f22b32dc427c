import { AttributeType, Billing, type ITableV2, StreamViewType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { TABLE_SCHEMA } from '#shared/data/table-schema';
import { saleWarmThroughput } from './sale-capacity.ts';
import { protectedRemovalPolicyOf, type StageSettings, StageSettingsError } from './stages.ts';

/**
 * How many of TABLE_SCHEMA's GSIs the stack declares (the first N), from the stage file's
 * `table.indexes` (or `-c tableIndexes=N`); default all. CloudFormation adds at most one GSI per update of a
 * table, so a stage created before the newer indexes is migrated one deploy per index
 * (README "Data migrations": 4, 5, then without the context).
 */
export function tableIndexCount(value: unknown): number {
  const all = TABLE_SCHEMA.globalIndexes.length;
  if (value === undefined || value === null || value === '') return all;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0 || count > all)
    throw new StageSettingsError(`tableIndexes must be a whole number from 0 to ${all}, got ${String(value)}.`);
  return count;
}

/**
 * The single table, shaped by TABLE_SCHEMA (the local stack creates the same one).
 * GSIs project ALL attributes: the overloaded indexes serve lists that return whole
 * records, and a KEYS_ONLY index would cost a second read per item. Its change stream
 * carries both images of each change: the webhooks and the paid orders' issue read it (infra/webhooks.ts,
 * infra/paid-order-issuing.ts). A stage sized for an on-sale declares the table's and every index's warm throughput
 * for it (infra/sale-capacity.ts): a new on-demand table takes 4,000 write units a second at once and doubles its
 * partitions only as its traffic grows, so the rush's first minutes would throttle; warm, it takes the sale's
 * figure from the first second. Each index gets the table's figure: a table write reaches an index at most as often;
 * the first `table.warmIndexes` of them (a release changes one GSI's declaration at a time: one more per deploy).
 */
export function singleTable(scope: Construct, id: string, settings: StageSettings): TableV2 {
  const key = (name: string) => ({ name, type: AttributeType.STRING });
  const indexes = TABLE_SCHEMA.globalIndexes.slice(0, tableIndexCount(settings.tableIndexes));
  const warmThroughput = settings.onSale && saleWarmThroughput(settings.onSale);
  return new TableV2(scope, id, {
    partitionKey: key(TABLE_SCHEMA.partitionKey),
    sortKey: key(TABLE_SCHEMA.sortKey),
    globalSecondaryIndexes: indexes.map((index, at) => ({
      indexName: index.indexName,
      partitionKey: key(index.partitionKey),
      sortKey: key(index.sortKey),
      ...(warmThroughput && at < (settings.warmIndexes ?? indexes.length) && { warmThroughput }),
    })),
    timeToLiveAttribute: TABLE_SCHEMA.timeToLiveAttribute,
    dynamoStream: StreamViewType[TABLE_SCHEMA.streamViewType],
    billing: Billing.onDemand(),
    ...(warmThroughput && { warmThroughput }),
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: settings.deletionProtection,
    removalPolicy: protectedRemovalPolicyOf(settings),
  });
}

/**
 * The table the stage's functions use: its own, or the restored table its stage file names
 * (`table.restoredName`, README "Restoring the table"), referenced by name, with the stream
 * the webhooks read (`table.restoredStreamArn`: a restore has none until one is enabled, and its
 * ARN is known only then; infra/stages.ts refuses the one without the other). The stage's own
 * table stays in the stack as it was (nothing deleted or replaced by the switch, and there to
 * inspect); only the references move: TABLE_NAME, the grants, the stream's mapping, the alarms
 * and the output.
 */
export function stageTable(scope: Construct, id: string, settings: StageSettings): ITableV2 {
  const own = singleTable(scope, id, settings);
  if (!settings.restoredTableName) return own;
  return TableV2.fromTableAttributes(scope, `${id}Restored`, {
    tableName: settings.restoredTableName,
    tableStreamArn: settings.restoredTableStreamArn,
    // Restored with the same GSIs (point-in-time restore keeps them): the grants cover them as the own table's do.
    grantIndexPermissions: true,
  });
}
