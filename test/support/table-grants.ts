import type { TableGrant } from '#shared/job-grants';
import { tableGrantOf } from '#shared/routes';

/**
 * Each deployed function's DynamoDB commands, as IAM authorises them, recorded while the integration tests run
 * (in-process routes through bin/local/invoke.ts, the webhooks' jobs through bin/local/webhook-workers.ts), and held
 * against the function's grant in shared/routes.ts: a command outside it would be AccessDenied deployed.
 *
 * IAM has no action for a transaction: TransactWriteItems needs the action of each part (PutItem, UpdateItem,
 * DeleteItem, ConditionCheckItem) and TransactGetItems GetItem
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html), so a transaction is
 * recorded as its parts. A Query of an index is recorded with the index (its grant names each index it may read).
 * The recording: test/support/table-grants-setup.ts; the run's check: table-grants-run.ts.
 */
export interface TableUse {
  /** The function: a route's key or a job's name. */
  fn: string;
  /** The IAM action, `Query` of an index as `Query:GSI2`. */
  action: string;
}

const PARTS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

/** The IAM actions one command needs. */
export function actionsOf(command: string, input: Record<string, unknown>): string[] {
  const name = command.replace(/Command$/, '');
  if (name === 'TransactWriteItems' || name === 'TransactGetItems') {
    const items = (input.TransactItems ?? []) as Record<string, unknown>[];
    return [...new Set(items.flatMap((item) => Object.keys(item).map((part) => PARTS[part] ?? part)))];
  }
  if ((name === 'Query' || name === 'Scan') && typeof input.IndexName === 'string')
    return [`${name}:${input.IndexName}`];
  return [name];
}

/** What a grant admits, in the spelling `actionsOf` answers. */
export function admitted(grant: TableGrant | undefined): Set<string> {
  if (!grant) return new Set();
  return new Set([...grant.actions, ...(grant.indexes ?? []).map((index) => `Query:${index}`)]);
}

/** The recorded uses outside their function's grant, as `fn: action` lines. */
export const outsideGrants = (uses: readonly TableUse[]): string[] =>
  uses.filter(({ fn, action }) => !admitted(tableGrantOf(fn)).has(action)).map(({ fn, action }) => `${fn}: ${action}`);
