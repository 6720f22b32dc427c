#!/usr/bin/env -S npx tsx
/**
 * `npm run preflight -- --stage prod [--account 123456789012] [-c key=value ...]`: before a
 * deploy, checks the stage's committed settings (infra/stages/<stage>.ts) against the account
 * with the deploying credentials (read-only calls): region, account, Lambda concurrency, the SES
 * identity and sandbox, the signing-key secret, certificate, hosted zone, web ACL, alarm
 * subscribers; and prints what the deploy will do. The `-c` settings are the ones `cdk deploy`
 * would get. Exits 1 when a deploy would fail, printing each miss with its fix (README "Deploying").
 */
import { pathToFileURL } from 'node:url';
import { resolveStage, StageSettingsError, unknownContextKeys } from '../infra/stages.ts';
import { judge, plan, report } from './preflight/checks.ts';
import { readFacts } from './preflight/facts.ts';

/** `--stage prod --account 1 -c emailFrom=x -c adminDomain=y` → the stage, the account, the context. */
export function parseArguments(argv: readonly string[]): { context: Record<string, string>; expectedAccount?: string } {
  const context: Record<string, string> = {};
  let expectedAccount: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new StageSettingsError(`${flag} needs a value`);
    if (flag === '--stage') context.stage = value;
    else if (flag === '--account') expectedAccount = value;
    else if (flag === '-c' && value.includes('=')) {
      const key = value.slice(0, value.indexOf('='));
      // As the CDK app does: a mistyped setting would otherwise check the committed value silently.
      if (unknownContextKeys([key]).length)
        throw new StageSettingsError(`unknown setting -c ${key} (infra/stages.ts OVERRIDES)`);
      context[key] = value.slice(value.indexOf('=') + 1);
    } else
      throw new StageSettingsError(`unknown argument ${flag} (expected --stage <stage>, --account <id>, -c key=value)`);
    i += 1;
  }
  return { context, ...(expectedAccount ? { expectedAccount } : {}) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const { context, expectedAccount } = parseArguments(process.argv.slice(2));
    const settings = resolveStage((key) => context[key]);
    const { text, failed } = report(judge(await readFacts(settings, { expectedAccount })));
    const deploy = plan(settings).map((line) => `  ${line}`);
    console.log(
      `Preflight of stage ${settings.name} (${settings.file}):\n\n${text}\n\nnpx cdk deploy -c stage=${settings.name} will deploy:\n${deploy.join('\n')}`,
    );
    process.exitCode = failed ? 1 : 0;
  } catch (error) {
    if (!(error instanceof StageSettingsError)) throw error;
    console.error(`preflight: ${error.message}`);
    process.exitCode = 2;
  }
}
