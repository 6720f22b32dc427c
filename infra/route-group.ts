import { NestedStack, Validations } from 'aws-cdk-lib';
import { LambdaApplication } from 'aws-cdk-lib/aws-codedeploy';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { RouteFunction } from './route-function.ts';
import type { StageSettings } from './stages.ts';

/**
 * The stack of one route group (the handler's directory: `auth`, `tickets`, ...), nested in
 * the stage's stack: its functions, their roles, log groups, routes and, with canary
 * releases, their CodeDeploy deployment groups. About 10 resources per route, so a group of
 * 13 routes holds about 135 of CloudFormation's 500, and adding a route touches only its
 * group (test/infra/stack-limits.test.ts keeps every stack under 400).
 */
export class RouteGroupStack extends NestedStack {
  private readonly settings: StageSettings;
  private canary?: { application: LambdaApplication; role: Role };

  constructor(scope: Construct, id: string, { settings, group }: { settings: StageSettings; group: string }) {
    super(scope, id, { description: `Ticketing API (${settings.name}): the ${group} routes` });
    this.settings = settings;
  }

  /**
   * How a new version of the route's function goes live: all at once (dev), or by canary,
   * rolled back by the errors of the new version alone (RouteFunction.deployByCanary).
   */
  release(fn: RouteFunction): void {
    if (!this.settings.canaryReleases) return;
    const canary = this.canaryReleases();
    fn.deployByCanary(canary.application, canary.role);
  }

  /** One CodeDeploy application and service role per group, shared by its deployment groups. */
  private canaryReleases() {
    if (this.canary) return this.canary;
    const role = new Role(this, 'ReleaseRole', {
      assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSCodeDeployRoleForLambdaLimited')],
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        "AWS's own least-privilege policy for CodeDeploy on Lambda: invoke the hooks, read the alarms, move aliases.",
    });
    this.canary = { application: new LambdaApplication(this, 'Releases'), role };
    return this.canary;
  }
}
