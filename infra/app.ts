import { App, type AppProps, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { RouteRow } from '#shared/routes';
import { resolveStage } from './stages.ts';
import { TicketingStack } from './ticketing-stack.ts';

export interface TicketingAppProps extends AppProps {
  /** Defaults to shared/routes.ts. */
  routes?: readonly RouteRow[];
  /** Defaults to `functions/`. */
  functionsDir?: string;
}

/**
 * The CDK app: one stack for the stage named by `-c stage=...`, checked by cdk-nag's
 * AWS Solutions pack. Environment-agnostic (no account or region lookups), so synth
 * works offline; the account and region come from the deploying credentials.
 */
export function createApp(props: TicketingAppProps = {}): { app: App; stack: TicketingStack } {
  const { routes, functionsDir, ...appProps } = props;
  const app = new App(appProps);
  const settings = resolveStage((key) => app.node.tryGetContext(key));
  const stack = new TicketingStack(app, `Ticketing-${settings.name}`, {
    settings,
    routes,
    functionsDir,
    description: `Ticketing API v2 (${settings.name})`,
    terminationProtection: settings.retainData,
  });
  Tags.of(app).add('project', 'ticketing');
  Tags.of(app).add('stage', settings.name);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
