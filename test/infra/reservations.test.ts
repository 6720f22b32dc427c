import type { CfnElement } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { jobs } from '#shared/job-grants';
import { resourcesOf, synth } from './synth.ts';

/** The reservations' lapsing job (infra/reservations.ts): its schedule, one run a tick, and its grant. */
describe('the reservations lapsing job', () => {
  const { stack, template } = synth({ context: { stage: 'dev' } });
  const lapser = stack.getLogicalId(stack.reservations.lapser.node.defaultChild as CfnElement);
  const fn = resourcesOf(template, 'AWS::Lambda::Function')[lapser]!;

  it('runs every minute, a tick neither retried nor kept past a minute, so tickets are on sale again within one', () => {
    const rules = Object.entries(resourcesOf(template, 'AWS::Events::Rule')).filter(([, rule]) =>
      JSON.stringify(rule.Properties.Targets).includes(lapser),
    );
    expect(rules).toHaveLength(1);
    const [ruleId, rule] = rules[0]!;
    expect(rule.Properties).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [
        {
          Arn: { 'Fn::GetAtt': [lapser, 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 },
        },
      ],
    });
    const invokers = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter((permission) =>
      JSON.stringify(permission.Properties.FunctionName).includes(lapser),
    );
    expect(invokers.map((permission) => permission.Properties)).toEqual([
      expect.objectContaining({
        Action: 'lambda:InvokeFunction',
        Principal: 'events.amazonaws.com',
        SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
      }),
    ]);
    expect(fn.Properties).toMatchObject({ Timeout: 60 });
  });

  it('may read and write the table (no Scan; the orders-by-status and GSI1 indexes only), read the Stripe secret and mail from the stage sender, nothing else', () => {
    expect(jobs['release-reservations'].actions).not.toContain('Scan');
    const role = fn.Properties.Role['Fn::GetAtt'][0];
    const statements = Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
      .filter((policy) => policy.Properties.Roles.some((one: { Ref: string }) => one.Ref === role))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
    const actions = statements.flatMap((statement: { Action: string | string[] }) => [statement.Action].flat());
    // Mail: a paid checkout the sweep finishes gets its confirmation (shared/selling/use-cases/sweep-stuck-orders.ts).
    expect(actions.filter((action: string) => /^(kms|cognito-idp):/.test(action))).toEqual([]);
    const mail = statements.filter((statement: { Action: string | string[] }) =>
      [statement.Action].flat().some((action) => action.startsWith('ses:')),
    );
    expect(mail).toHaveLength(1);
    expect(mail[0].Condition).toEqual({ StringEquals: { 'ses:FromAddress': expect.any(String) } });
    expect(fn.Properties.Environment.Variables).toMatchObject({
      EMAIL_FROM: expect.any(String),
      PORTAL_URL: expect.anything(),
    });
    const secrets = statements.filter((statement: { Action: string | string[] }) =>
      [statement.Action].flat().some((action) => action.startsWith('secretsmanager:')),
    );
    expect(secrets).toHaveLength(1);
    expect(secrets[0].Action).toBe('secretsmanager:GetSecretValue');
    expect(JSON.stringify(secrets[0].Resource)).toContain('/stripe-??????');
    expect(fn.Properties.Environment.Variables.STRIPE_SECRET).toBe('ticketing/dev/stripe');
    expect(actions).not.toContain('dynamodb:Scan');
    const indexes = [...JSON.stringify(statements).matchAll(/\/index\/(GSI\d)/g)].map((match) => match[1]);
    expect([...new Set(indexes)].sort()).toEqual(['GSI1', 'GSI6']);
  });
});
