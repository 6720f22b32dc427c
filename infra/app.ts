import { App, type AppProps, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { RouteRow } from '#shared/routes';
import { overridesLine, resolveStage, StageSettingsError, unknownContextKeys } from './stages.ts';
import { TicketingStack } from './ticketing-stack.ts';

export interface TicketingAppProps extends AppProps {
  /** Defaults to shared/routes.ts. */
  routes?: readonly RouteRow[];
  /** Defaults to `functions/`. */
  functionsDir?: string;
  /** Where the line naming this deploy's `-c` overrides goes; defaults to stderr. */
  report?: (line: string) => void;
}

/**
 * The CDK app: one stack for the stage named by `-c stage=...` (its settings committed in
 * infra/stages/<stage>.ts), checked by cdk-nag's AWS Solutions pack. staging and prod are
 * pinned to their account and region (credentials for another account fail at deploy); dev
 * deploys where the credentials point. No lookups, so synth works offline.
 */
export function createApp(props: TicketingAppProps = {}): { app: App; stack: TicketingStack } {
  const { routes, functionsDir, report = (line: string) => console.error(line), ...appProps } = props;
  const app = new App(appProps);
  const unknown = unknownContextKeys(Object.keys(app.node.getAllContext()));
  if (unknown.length)
    throw new StageSettingsError(
      `unknown setting -c ${unknown.join(', -c ')} (the settings: infra/stages.ts OVERRIDES)`,
    );
  const settings = resolveStage((key) => app.node.tryGetContext(key));
  const overridden = overridesLine(settings);
  if (overridden) report(overridden);
  const stack = new TicketingStack(app, `Ticketing-${settings.name}`, {
    settings,
    routes,
    functionsDir,
    env: settings.env,
    description: `Ticketing API v2 (${settings.name})`,
    // On with deletion protection, once the stage exists: a failed first create must be deletable.
    terminationProtection: settings.deletionProtection,
  });
  Tags.of(app).add('project', 'ticketing');
  Tags.of(app).add('stage', settings.name);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
