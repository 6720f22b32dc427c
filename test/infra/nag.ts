import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { App } from 'aws-cdk-lib';
import { type SynthOptions, synth } from './synth.ts';

/**
 * The cdk-nag findings neither fixed nor acknowledged, one line each:
 * `<severity> <rule> <construct paths>`. Read from the validation report of an app already
 * built (this synthesises it).
 */
export function unacknowledgedFindings(app: App): string[] {
  const report = JSON.parse(readFileSync(path.join(app.synth().directory, 'validation-report.json'), 'utf8'));
  return report.pluginReports.flatMap((plugin: any) =>
    plugin.violations.map(
      (v: any) => `${v.severity} ${v.ruleName} ${v.violatingConstructs.map((c: any) => c.constructPath)}`,
    ),
  );
}

/** The unacknowledged cdk-nag findings of the whole app built with these options. */
export const nagFindings = (options: SynthOptions = {}): string[] => unacknowledgedFindings(synth(options).app);
