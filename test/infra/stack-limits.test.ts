import { describe, expect, it } from 'vitest';
import { routes } from '#shared/routes';
import { alarmName, routeSlug } from '../../infra/alarm-names.ts';
import { STAGE_NAMES } from '../../infra/stages.ts';
import { routeGroup } from '../../infra/ticketing-stack.ts';
import { routeFunctions, synth } from './synth.ts';

/** CloudFormation's limit per template, and the share of it a stack may reach before CI says so. */
const CLOUDFORMATION_LIMIT = 500;
const ALARM_SHARE = 0.8;

describe.each(STAGE_NAMES)('the stacks of %s', (stage) => {
  const synthesized = synth({ context: { stage } });

  it(`keep every stack, nested ones included, within ${ALARM_SHARE * 100} % of CloudFormation's ${CLOUDFORMATION_LIMIT} resources`, () => {
    const counts = [...synthesized.stacks].map(
      ([path, template]) => [path, Object.keys(template.toJSON().Resources).length] as const,
    );
    expect(counts.length).toBe(2 + new Set(routes.map(routeGroup)).size);
    for (const [path, count] of counts)
      expect(count, `${path} holds ${count} resources`).toBeLessThanOrEqual(CLOUDFORMATION_LIMIT * ALARM_SHARE);
  });

  it("put each route in the stack of its group (its handler's directory)", () => {
    for (const row of routes) {
      const [groupPath, template] = [...synthesized.stacks].find(([path]) =>
        path.endsWith(
          `/Routes${routeGroup(row)
            .split('-')
            .map((p) => p[0]!.toUpperCase() + p.slice(1))
            .join('')}`,
        ),
      )!;
      expect(routeFunctions(template).has(row.handler), `${row.handler} in ${groupPath}`).toBe(true);
    }
  });

  it(
    stage === 'dev'
      ? 'switch every function to a new version at once (no deployment group)'
      : 'release every function by canary, rolled back by its errors alarm or the API 5xx rate',
    () => {
      const groups = Object.values(synthesized.template.findResources('AWS::CodeDeploy::DeploymentGroup')) as {
        Properties: Record<string, any>;
      }[];
      if (stage === 'dev') return expect(groups).toEqual([]);
      expect(groups).toHaveLength(routes.length);
      const watched = groups.map((group) =>
        group.Properties.AlarmConfiguration.Alarms.map((alarm: { Name: string }) => alarm.Name).sort(),
      );
      expect(watched.sort()).toEqual(
        routes
          .map((row) => [alarmName(stage, 'api-5xx-rate'), alarmName(stage, `${routeSlug(row)}-errors`)].sort())
          .sort(),
      );
      for (const group of groups) {
        expect(group.Properties.DeploymentConfigName).toBe('CodeDeployDefault.LambdaCanary10Percent5Minutes');
        expect(group.Properties.AutoRollbackConfiguration).toMatchObject({
          Enabled: true,
          Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']),
        });
      }
      // Each alias moves by CodeDeploy, not by CloudFormation.
      for (const alias of Object.values(synthesized.template.findResources('AWS::Lambda::Alias')) as {
        UpdatePolicy?: Record<string, any>;
      }[]) {
        expect(alias.UpdatePolicy?.CodeDeployLambdaAliasUpdate).toBeDefined();
      }
    },
  );
});
