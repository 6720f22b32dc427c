import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeKey, routes } from '#shared/routes';
import { routeFunctions, statementsOf, synth } from './synth.ts';

/**
 * Stripe's secret (`ticketing/<stage>/stripe`: the secret key and webhook secret, `npm run keys -- stripe`) is
 * readable by the rows with `uses.payments` only, by name, and reaches no function's environment.
 */
const SECRET_NAME = 'ticketing/dev/stripe';
const secretArn = {
  'Fn::Join': [
    '',
    [
      'arn:',
      { Ref: 'AWS::Partition' },
      ':secretsmanager:',
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      `:secret:${SECRET_NAME}-??????`,
    ],
  ],
};

describe('the Stripe secret in the stack of shared/routes.ts', () => {
  let template: Template;
  beforeAll(() => {
    template = synth().template;
  }, 60_000);

  it('marks the rows that call Stripe', () => {
    const calling = routes.filter((row) => row.uses.payments).map(routeKey);
    expect(calling).toContain('POST /payments/stripe/webhook');
    expect(calling).toContain('POST /orders/{id}/cancel');
  });

  it('gives exactly those rows STRIPE_SECRET and GetSecretValue on that one secret', () => {
    for (const row of routes) {
      const { fn } = routeFunctions(template).get(row.handler)!;
      const env = fn.Properties.Environment.Variables;
      const onStripe = statementsOf(template, fn)
        .filter((s) => [s.Action].flat().some((action) => action.startsWith('secretsmanager:')))
        .flatMap((s) =>
          [s.Resource].flat().map((resource) => ({ Effect: s.Effect, Action: s.Action, Resource: resource })),
        )
        .filter((s) => JSON.stringify(s.Resource).includes('/stripe'));
      if (row.uses.payments) {
        expect(env.STRIPE_SECRET, routeKey(row)).toBe(SECRET_NAME);
        expect(onStripe, routeKey(row)).toEqual([
          { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: secretArn },
        ]);
      } else {
        expect(env, routeKey(row)).not.toHaveProperty('STRIPE_SECRET');
        expect(onStripe, routeKey(row)).toEqual([]);
      }
    }
  });

  it('puts no Stripe secret value in any environment, and points no function at another Stripe API', () => {
    for (const { fn } of routeFunctions(template).values()) {
      const env = JSON.stringify(fn.Properties.Environment.Variables);
      expect(env).not.toMatch(/sk_(test|live)_|whsec_/);
      expect(env).not.toContain('STRIPE_API_URL');
    }
  });

  it("holds the public webhook row's table writes to the partitions of a paid checkout it declares", () => {
    const row = routes.find((r) => routeKey(r) === 'POST /payments/stripe/webhook')!;
    expect(row.uses.tableWrites).toEqual(expect.arrayContaining(['ORDER#*', 'RESERVATION#*', 'STOCK#*', 'TICKET#*']));
    const { fn } = routeFunctions(template).get(row.handler)!;
    const writes = statementsOf(template, fn).filter((s) =>
      [s.Action].flat().some((a) => ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'].includes(a)),
    );
    expect(writes.length).toBeGreaterThan(0);
    for (const statement of writes)
      expect(statement.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...row.uses.tableWrites!] },
      });
  });
});
