import type { TableGrant } from '#shared/job-grants';
import { keys } from '#shared/data/keys';
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

/**
 * A mark, not an action: the function touched an item that a Put writes only when the run's order or clock makes it so,
 * so a run may or may not show that Put for any one function (table-grants-run.ts does not ask for it):
 * - the login log key (shared/identity/data/log-key.ts), made once per table by whichever function needs it first;
 * - a rate or login-throttle window (shared/data/rate-limits.ts, login-throttle.ts), whose window shared by a
 *   network is started again by a Put only once it has passed (a run whose legacy change-passwords all come within
 *   their network's window sends no such Put, though another run's order does).
 */
export const PUTS_BY_ORDER_OR_CLOCK = 'marks:puts-by-order-or-clock';

const LOG_KEY = keys.logKey().PK;
const RATE_WINDOW = keys.rateWindow('', '').PK.split('#')[0]!;

/** The marks one command carries beside its actions (`PUTS_BY_ORDER_OR_CLOCK`). */
export function marksOf(input: Record<string, unknown>): string[] {
  const item = (input.Key ?? input.Item) as Record<string, unknown> | undefined;
  const pk = String(item?.PK ?? '');
  return pk === LOG_KEY || pk.startsWith(`${RATE_WINDOW}#`) ? [PUTS_BY_ORDER_OR_CLOCK] : [];
}

/** What a grant admits, in the spelling `actionsOf` answers. */
export function admitted(grant: TableGrant | undefined): Set<string> {
  if (!grant) return new Set();
  return new Set([...grant.actions, ...(grant.indexes ?? []).map((index) => `Query:${index}`)]);
}

/** The recorded uses outside their function's grant, as `fn: action` lines. */
export const outsideGrants = (uses: readonly TableUse[]): string[] =>
  uses
    .filter(({ fn, action }) => action !== PUTS_BY_ORDER_OR_CLOCK && !admitted(tableGrantOf(fn)).has(action))
    .map(({ fn, action }) => `${fn}: ${action}`);
