import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '../../data/client.ts';

/** The GSIs the deployed table has now, by name (CloudFormation adds one per update: preflight names the next step). */
export async function deployedIndexNames(): Promise<string[]> {
  const { Table } = await db.send(new DescribeTableCommand({ TableName: tableName() }));
  // DescribeTable lists them in no set order.
  return (Table?.GlobalSecondaryIndexes ?? [])
    .map((index) => index.IndexName ?? '')
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}
