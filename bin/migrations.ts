/**
 * `npm run migrations -- --stage <name> [--resume | --rerun <id>] [--region <r>]`: the data
 * migrations' ledger of a stage (which ran, when, how far), and the two repairs:
 *
 *   (none)        print the ledger
 *   --resume      start the runner now (after a failure is fixed): it goes on from each checkpoint
 *   --rerun <id>  forget one migration and run it again from its start (idempotent: it repairs)
 *
 * A deployed stage is reached through its runner function (`Ticketing-<stage>-migrations`,
 * infra/migrations.ts), so this needs lambda:InvokeFunction only. `--stage local` acts on the
 * stack `npm start` runs, in this process.
 */
import { parseArgs } from 'node:util';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { migrationRunnerName } from '../infra/migrations.ts';
import { useRunningStack } from './local/running-stack.ts';

const usage = 'usage: npm run migrations -- --stage <name> [--resume | --rerun <id>] [--region <region>]';
const { values } = parseArgs({
  options: {
    stage: { type: 'string' },
    resume: { type: 'boolean' },
    rerun: { type: 'string' },
    region: { type: 'string' },
  },
});
const rerun = values.rerun === undefined ? undefined : Number(values.rerun);
if (!values.stage || (rerun !== undefined && !(Number.isInteger(rerun) && rerun > 0)) || (values.resume && rerun)) {
  console.error(usage);
  process.exit(2);
}

type Row = Record<string, string | number | null>;
const command =
  rerun !== undefined ? { action: 'rerun', id: rerun } : values.resume ? { action: 'run' } : { action: 'ledger' };

async function local(): Promise<unknown> {
  console.error(`Local stack: ${useRunningStack()}`);
  // After the environment is set: shared/ reads it when its modules load.
  const { migrationCommand } = await import('#shared/migrations/use-cases/commands');
  const { rerunMigration, runMigrations } = await import('#shared/migrations/use-cases/runner');
  const owner = `cli:${process.env.USER ?? 'local'}`;
  if (command.action === 'ledger')
    return migrationCommand({ action: 'ledger' }, { functionName: '', requestId: owner, stopAt: 0 });
  if (rerun !== undefined && !(await rerunMigration(rerun))) return { rerun: false, reason: 'a runner holds it now' };
  return runMigrations({ owner, stopAt: Number.POSITIVE_INFINITY });
}

async function deployed(stage: string): Promise<unknown> {
  const lambda = new LambdaClient(values.region ? { region: values.region } : {});
  const FunctionName = migrationRunnerName(stage);
  const asynchronous = command.action === 'run';
  const answer = await lambda.send(
    new InvokeCommand({
      FunctionName,
      InvocationType: asynchronous ? 'Event' : 'RequestResponse',
      Payload: JSON.stringify(command),
    }),
  );
  if (answer.FunctionError) throw new Error(`${FunctionName}: ${new TextDecoder().decode(answer.Payload)}`);
  return asynchronous ? { started: FunctionName } : JSON.parse(new TextDecoder().decode(answer.Payload));
}

try {
  const result = (await (values.stage === 'local' ? local() : deployed(values.stage))) as { ledger?: Row[] };
  if (result.ledger) console.table(result.ledger);
  else console.log(JSON.stringify(result, null, 2));
} catch (error) {
  console.error(`migrations failed: ${(error as Error).name}: ${(error as Error).message}`);
  process.exitCode = 1;
}
