/**
 * Ends every session of one account: a customer (the portal has no logout-everywhere or
 * password route: its password lives in Cognito) or an administrator (who can also do it
 * with `POST /auth/logout`). README "Sessions and revocation".
 *
 *   TABLE_NAME=<table> AWS_REGION=<region> npx tsx bin/maintenance/end-sessions.ts --customer 4711
 *   TABLE_NAME=<table> AWS_REGION=<region> npx tsx bin/maintenance/end-sessions.ts --administrator 12
 *
 * Without TABLE_NAME (and AWS_ENDPOINT_URL_DYNAMODB), the table of the stack `npm start` runs (.local/stack.json).
 *
 * Raises the account's session version: every token issued before, and its refresh, is
 * refused within SESSION_CHECK_SECONDS (30 s, the functions' cache of the version); the
 * next sign-in issues a token under the new version. For a customer whose password may be
 * known to someone else, also reset it in Cognito (AdminResetUserPassword), or they sign in again.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { SessionOwner } from '#shared/identity/data/session-versions';
import { useRunningStack } from '../local/running-stack.ts';

export class UsageError extends Error {}

const USAGE = 'usage: --customer <id> | --administrator <id>';

/** The owner and id named on the command line; exactly one of the two options. */
export function parseAccount(values: { customer?: string; administrator?: string }): {
  owner: SessionOwner;
  id: number;
} {
  const given = [
    values.customer === undefined ? [] : [['customer', values.customer] as const],
    values.administrator === undefined ? [] : [['admin', values.administrator] as const],
  ].flat();
  if (given.length !== 1) throw new UsageError(USAGE);
  const [owner, text] = given[0]!;
  if (!/^[1-9]\d{0,15}$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw new UsageError(`expected an account id, got "${text}"`);
  return { owner, id: Number(text) };
}

/** Raises the version; the new one. Refuses an id without a record (a typo must not pass silently). */
export async function endSessions(owner: SessionOwner, id: number): Promise<number> {
  // Loaded here, not at the top: the command points itself at its table first (main), and shared/data reads the
  // environment when it loads.
  const { raiseSessionVersion, readSessionVersion } = await import('#shared/identity/data/session-versions');
  if (!(await raiseSessionVersion(owner, id)))
    throw new UsageError(`there is no ${owner === 'admin' ? 'administrator' : 'customer'} ${id}`);
  return readSessionVersion(owner, id);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { customer: { type: 'string' }, administrator: { type: 'string' } } });
  const { owner, id } = parseAccount(values);
  console.error(`Table: ${useRunningStack()}`);
  const version = await endSessions(owner, id);
  console.log(
    `Sessions of ${owner === 'admin' ? 'administrator' : 'customer'} ${id} ended (session version now ${version}); earlier tokens are refused within 30 s.`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
