import { describe, expect, it } from 'vitest';
import { routes } from '#shared/routes';
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
      : "release every function by canary, rolled back by its new version's errors alone (ExecutedVersion), never by the stage's 5xx",
    () => {
      const groups = Object.values(synthesized.template.findResources('AWS::CodeDeploy::DeploymentGroup')) as {
        Properties: Record<string, any>;
      }[];
      if (stage === 'dev') return expect(groups).toEqual([]);
      expect(groups).toHaveLength(routes.length);
      const alarms = synthesized.template.findResources('AWS::CloudWatch::Alarm');
      const versions = synthesized.template.findResources('AWS::Lambda::Version');
      for (const group of groups) {
        const [watched, ...more] = group.Properties.AlarmConfiguration.Alarms as { Name: { Ref: string } }[];
        expect(more).toEqual([]);
        const alarm = alarms[watched!.Name.Ref]!.Properties;
        expect(alarm.AlarmName).toBeUndefined();
        expect(alarm).toMatchObject({ MetricName: 'Errors', Namespace: 'AWS/Lambda', Statistic: 'Sum', Threshold: 1 });
        const dimensions = Object.fromEntries(
          alarm.Dimensions.map((dimension: { Name: string; Value: unknown }) => [dimension.Name, dimension.Value]),
        );
        // The version this deploy publishes, behind the alias `live` (the alias' Resource), of the group's own function.
        const [versionId] = dimensions.ExecutedVersion['Fn::GetAtt'];
        expect(dimensions.ExecutedVersion).toEqual({ 'Fn::GetAtt': [versionId, 'Version'] });
        expect(versions[versionId]?.Properties.FunctionName).toEqual(dimensions.FunctionName);
        expect(dimensions.Resource).toEqual({ 'Fn::Join': ['', [dimensions.FunctionName, ':live']] });
      }
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
