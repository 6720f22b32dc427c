import type { Context } from 'aws-lambda';
import { MigrationCommand, migrationCommand } from '#shared/migrations/use-cases/commands';

/** Time left for the last unit of work once the runner stops taking new ones. */
const STOP_MARGIN_MS = 3 * 60_000;

/**
 * Not a route: the deploy's trigger starts it (infra/migrations.ts), it starts itself again
 * until every migration is done, and `npm run migrations` asks it for the ledger or a rerun.
 */
export const handler = async (event: unknown, context: Context) =>
  migrationCommand(MigrationCommand.parse(event ?? {}), {
    // Unqualified: a version this run was started as may be gone when it continues.
    functionName: context.functionName,
    requestId: context.awsRequestId,
    stopAt: Date.now() + context.getRemainingTimeInMillis() - STOP_MARGIN_MS,
  });
