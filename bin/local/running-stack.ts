import { existsSync, readFileSync } from 'node:fs';

/**
 * Where `npm start` records the running local stack: the stand-ins' endpoints, the table and the service's environment.
 * `STACK_FILE` moves it (the tests' own stacks, so a developer's running one keeps its file).
 */
export const STACK_FILE = process.env.STACK_FILE ?? '.local/stack.json';

/**
 * Points this process at the stack `npm start` runs (STACK_FILE), for scripts that act on it
 * (`npm run seed`, `npm run migrations -- --stage local`). `AWS_ENDPOINT_URL_DYNAMODB` or
 * `TABLE_NAME` in the environment mean another target (a deployed stage, with its own
 * credentials): then none of the local stack's settings apply, not even its dummy keys.
 * Call it before importing anything under shared/ (its modules read the environment when they
 * load). Answers the target, for messages; exits 2 when there is no table.
 */
export function useRunningStack(): string {
  const explicit = !!(process.env.AWS_ENDPOINT_URL_DYNAMODB || process.env.TABLE_NAME);
  const stack =
    !explicit && existsSync(STACK_FILE)
      ? (JSON.parse(readFileSync(STACK_FILE, 'utf8')) as { env?: Record<string, string>; tableName?: string })
      : {};
  for (const [name, value] of Object.entries({
    ...stack.env,
    ...(stack.tableName ? { TABLE_NAME: stack.tableName } : {}),
  }))
    process.env[name] ??= value;
  if (!process.env.TABLE_NAME) {
    console.error(
      `No table: start the local stack (npm start writes ${STACK_FILE}) or set TABLE_NAME (and AWS_ENDPOINT_URL_DYNAMODB for a non-AWS endpoint).`,
    );
    process.exit(2);
  }
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return `${process.env.AWS_ENDPOINT_URL_DYNAMODB ?? 'AWS DynamoDB'} (table ${process.env.TABLE_NAME})`;
}
