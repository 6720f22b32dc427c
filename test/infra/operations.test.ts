import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { beforeAll, describe, expect, it } from 'vitest';
import { METRIC, METRICS_NAMESPACE } from '#shared/metric-names';
import { routes } from '#shared/routes';
import { concurrencyOf, stageReservations } from '../../infra/concurrency.ts';
import { ALARM_THRESHOLDS } from '../../infra/operations.ts';
import { TABLE_OPERATIONS } from '../../infra/operations-metrics.ts';
import { NONCURRENT_DAYS_OTHER, NONCURRENT_DAYS_PROD } from '../../infra/photo-store.ts';
import { CustomerIdentity } from '../../infra/customer-identity.ts';
import { resolveStage, STAGE_FILES, STAGE_NAMES, type StageName } from '../../infra/stages.ts';
import { singleTable } from '../../infra/table.ts';
import { unacknowledgedFindings } from './nag.ts';
import {
  onlyId,
  onlyResource,
  type Resource,
  ROUTE_SAMPLE,
  resourcesOf,
  routeFunctions,
  statementsOf,
  synth,
} from './synth.ts';
import { SALE_FUNCTIONS, saleConcurrency } from '../../infra/sale-capacity.ts';

interface Synthesized {
  template: Template;
  /** The main stack's own template. */
  main: Template;
  /** The Operations nested stack's own template. */
  operations: Template;
  findings: string[];
  /** The logical ids of the webhooks' stream consumer and dispatcher (infra/webhooks.ts). */
  webhookFunctions: string[];
  /** The logical id of the paid orders' issuing consumer (infra/paid-order-issuing.ts). */
  issuingConsumer: string;
}

const RETENTION: Record<StageName, RetentionDays> = {
  dev: RetentionDays.ONE_WEEK,
  staging: RetentionDays.ONE_MONTH,
  prod: RetentionDays.THREE_MONTHS,
};
const stages = {} as Record<StageName, Synthesized>;

beforeAll(() => {
  for (const stage of STAGE_NAMES) {
    const { app, stack, template } = synth({ context: { stage } });
    stages[stage] = {
      template,
      main: Template.fromStack(stack),
      operations: Template.fromStack(stack.operations),
      findings: unacknowledgedFindings(app),
      webhookFunctions: [stack.webhooks.ticketChanges, stack.webhooks.dispatcher].map((fn) =>
        stack.getLogicalId(fn.node.defaultChild as CfnElement),
      ),
      issuingConsumer: stack.getLogicalId(stack.issuing.consumer.node.defaultChild as CfnElement),
    };
  }
});

/** Whether an alarm is a canary's (RouteFunction.deployByCanary): it watches one new version and pages nobody. */
const isReleaseAlarm = (alarm: Record<string, any>) =>
  (alarm.Dimensions ?? []).some((dimension: { Name: string }) => dimension.Name === 'ExecutedVersion');
/** Every paging alarm of the stage, wherever it lives, its references as if in one stack (synth.ts `wholeStage`). */
const alarms = (stage: StageName) =>
  Object.values(resourcesOf(stages[stage].template, 'AWS::CloudWatch::Alarm'))
    .map((alarm) => alarm.Properties)
    .filter((alarm) => !isReleaseAlarm(alarm));
/** The data migration runner (infra/migrations.ts): the one function named `<stack>-migrations`. */
const migrationRunner = (template: Template) => {
  const [found, ...more] = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([, fn]) =>
    String(fn.Properties.FunctionName).endsWith('-migrations'),
  );
  expect(found && more.length === 0).toBe(true);
  return { id: found![0], fn: found![1] as Resource };
};

/** Deletion protection on: a table's (on its replica) or a user pool's. */
const deletionProtected = (resource: Resource): boolean =>
  resource.Properties?.Replicas?.[0]?.DeletionProtectionEnabled === true ||
  resource.Properties?.DeletionProtectionEnabled === true ||
  resource.Properties?.DeletionProtection === 'ACTIVE';

const alarmNamed = (stage: StageName, suffix: string) => {
  const found = alarms(stage).find((alarm) => alarm.AlarmName === `ticketing-${stage}-${suffix}`);
  if (!found) throw new Error(`no alarm ticketing-${stage}-${suffix}`);
  return found;
};
interface Watched {
  namespace: string;
  metricName: string;
  dimensions: Record<string, any>;
  stat: string;
}
const dimensionsOf = (list: { Name: string; Value: unknown }[] = []) =>
  Object.fromEntries(list.map((d) => [d.Name, d.Value]));
/** The metrics an alarm reads, whichever form CDK rendered: a plain metric, or the MetricStats of `Metrics` (a label or math). */
function metricsOf(alarm: Record<string, any>): Watched[] {
  if (alarm.MetricName) {
    return [
      {
        namespace: alarm.Namespace,
        metricName: alarm.MetricName,
        dimensions: dimensionsOf(alarm.Dimensions),
        stat: alarm.ExtendedStatistic ?? alarm.Statistic,
      },
    ];
  }
  return alarm.Metrics.filter((m: any) => m.MetricStat).map((m: any) => ({
    namespace: m.MetricStat.Metric.Namespace,
    metricName: m.MetricStat.Metric.MetricName,
    dimensions: dimensionsOf(m.MetricStat.Metric.Dimensions),
    stat: m.MetricStat.Stat,
  }));
}
const onlyMetric = (alarm: Record<string, any>): Watched => {
  const metrics = metricsOf(alarm);
  expect(metrics, alarm.AlarmName).toHaveLength(1);
  return metrics[0]!;
};

describe.each(STAGE_NAMES)('alarms of %s', (stage) => {
  it('notify one SNS topic per stage, SSL only, when they fire and when they clear', () => {
    const { operations } = stages[stage];
    const topicId = onlyId(operations, 'AWS::SNS::Topic');
    expect(onlyResource(operations, 'AWS::SNS::Topic').Properties.TopicName).toBe(`ticketing-${stage}-alarms`);
    const policy = onlyResource(operations, 'AWS::SNS::TopicPolicy');
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    // The policy replaces SNS's default one: CloudWatch may publish only for this stage's alarms.
    const allow = policy.Properties.PolicyDocument.Statement.filter((statement: any) => statement.Effect === 'Allow');
    expect(allow).toEqual([
      expect.objectContaining({
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: 'sns:Publish',
        Resource: { Ref: topicId },
        Condition: {
          StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
          ArnLike: { 'aws:SourceArn': expect.anything() },
        },
      }),
    ]);
    expect(JSON.stringify(allow[0].Condition.ArnLike)).toContain(`:alarm:ticketing-${stage}-*`);
    for (const alarm of alarms(stage)) expect(alarm.AlarmName).toMatch(new RegExp(`^ticketing-${stage}-`));
    for (const alarm of alarms(stage)) {
      expect(alarm.AlarmActions, alarm.AlarmName).toEqual([{ Ref: topicId }]);
      expect(alarm.OKActions, alarm.AlarmName).toEqual([{ Ref: topicId }]);
      // But one: the dispatcher reports the oldest undelivered webhook's age every minute, so no reading is a failure.
      expect(alarm.TreatMissingData, alarm.AlarmName).toBe(
        alarm.AlarmName === `ticketing-${stage}-webhook-oldest-pending-age` ? 'breaching' : 'notBreaching',
      );
    }
  });

  it('watch the API 5xx rate (5xx / Count) and its p99 latency at the stage thresholds', () => {
    const limits = ALARM_THRESHOLDS[stage];
    const rate = alarmNamed(stage, 'api-5xx-rate');
    const names = metricsOf(rate)
      .map((metric) => `${metric.namespace} ${metric.metricName} ${metric.stat}`)
      .sort();
    expect(names).toEqual(['AWS/ApiGateway 5xx Sum', 'AWS/ApiGateway Count Sum']);
    const expression = rate.Metrics.find((m: any) => m.Expression).Expression as string;
    expect(expression).toMatch(/100 \* errors \/ requests/);
    expect(expression).toContain(`requests >= ${limits.minRequests}`);
    expect(rate.Threshold).toBe(limits.api5xxPercent);

    const latency = alarmNamed(stage, 'api-latency-p99');
    expect(onlyMetric(latency)).toMatchObject({ namespace: 'AWS/ApiGateway', metricName: 'Latency', stat: 'p99' });
    expect(latency.Threshold).toBe(limits.apiP99Ms);
  });

  it('watch every route function: errors, and p99 duration above 80 % of its timeout', () => {
    const { template } = stages[stage];
    const functions = routeFunctions(template);
    expect(functions.size).toBe(routes.length);
    /** Route function logical id → the alarm watching its `metricName`. */
    const watching = (metricName: string) =>
      new Map(
        alarms(stage)
          .filter((alarm) => metricsOf(alarm).length === 1)
          .map((alarm) => ({ alarm, metric: onlyMetric(alarm) }))
          .filter(
            ({ metric }) =>
              metric.namespace === 'AWS/Lambda' && metric.metricName === metricName && metric.dimensions.FunctionName,
          )
          .map(({ alarm, metric }) => [metric.dimensions.FunctionName.Ref, { alarm, metric }]),
      );
    const ids = [...functions.values()].map(({ id }) => id).sort();
    const errors = watching('Errors');
    const durations = watching('Duration');
    // The migration runner's errors too (its own alarm, `migrations-failed`; its duration is up to 15 minutes by
    // design), the webhooks' stream consumer's and dispatcher's (test/infra/webhooks.test.ts), and the paid orders'
    // issuing consumer's (test/infra/paid-order-issuing.test.ts).
    expect([...errors.keys()].sort()).toEqual(
      [...ids, migrationRunner(template).id, ...stages[stage].webhookFunctions, stages[stage].issuingConsumer].sort(),
    );
    expect([...durations.keys()].sort()).toEqual(ids);
    for (const [, { id, fn }] of functions) {
      expect(errors.get(id)!.metric.stat).toBe('Sum');
      expect(errors.get(id)!.alarm.Threshold).toBe(1);
      expect(durations.get(id)!.metric.stat).toBe('p99');
      expect(durations.get(id)!.alarm.Threshold).toBe(fn.Properties.Timeout * 1000 * 0.8);
    }
  });

  it('run the data migrations once the release is live: a trigger starts the runner after every route stack, the webhooks and the alarms; it invokes only itself, unqualified; its failures alarm', () => {
    const { template } = stages[stage];
    const { id, fn } = migrationRunner(template);
    expect(fn.Properties.Timeout).toBe(900);
    // No reservation: the ledger's lease keeps one run at a time, and its continuation is never throttled.
    expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    const [trigger] = Object.values(resourcesOf(template, 'Custom::Trigger'));
    // Asynchronously (the deploy does not wait for a long migration), on each new version of the runner.
    expect(trigger!.Properties).toMatchObject({ InvocationType: 'Event', ExecuteOnHandlerChange: true });
    expect(JSON.stringify(trigger!.Properties.HandlerArn)).toContain('MigrationsFunctionCurrentVersion');
    // After the table and every nested stack (each route group ends when its canaries have; the operations stack),
    // and the webhooks' functions.
    const main = stages[stage].main.toJSON().Resources as Record<string, Resource>;
    const nestedStacks = Object.entries(main)
      .filter(([, resource]) => resource.Type === 'AWS::CloudFormation::Stack')
      .map(([nestedId]) => nestedId);
    expect(nestedStacks.length).toBeGreaterThan(5);
    const after = new Set(trigger!.DependsOn);
    for (const nested of nestedStacks) expect(after.has(nested), nested).toBe(true);
    expect(after.has(onlyId(template, 'AWS::DynamoDB::GlobalTable'))).toBe(true);
    for (const webhook of stages[stage].webhookFunctions) expect(after.has(webhook), webhook).toBe(true);
    const invokes = statementsOf(template, fn).filter((statement) =>
      [statement.Action].flat().includes('lambda:InvokeFunction'),
    );
    // Itself by name (a run continues as $LATEST, never as a version a later deploy may delete), nothing else.
    const resources = invokes.flatMap((statement) => [statement.Resource].flat());
    expect(resources).toHaveLength(1);
    expect(JSON.stringify(resources)).toContain(`function:Ticketing-${stage}-migrations"`);
    const failed = alarmNamed(stage, 'migrations-failed');
    expect(onlyMetric(failed).dimensions.FunctionName.Ref).toBe(id);
  });

  it("watch the account's Lambda throttles once, not per function", () => {
    const throttles = alarmNamed(stage, 'lambda-throttles');
    expect(onlyMetric(throttles)).toEqual({
      namespace: 'AWS/Lambda',
      metricName: 'Throttles',
      dimensions: {},
      stat: 'Sum',
    });
    expect(throttles.Threshold).toBe(1);
  });

  it("watch the table's throttled requests and system errors for each operation the code calls", () => {
    const tableId = onlyId(stages[stage].template, 'AWS::DynamoDB::GlobalTable');
    for (const [suffix, metricName] of [
      ['table-throttled-requests', 'ThrottledRequests'],
      ['table-system-errors', 'SystemErrors'],
    ] as const) {
      const metrics = metricsOf(alarmNamed(stage, suffix));
      expect(metrics.map((metric) => metric.dimensions.Operation).sort()).toEqual([...TABLE_OPERATIONS].sort());
      for (const metric of metrics) {
        expect(metric).toMatchObject({ namespace: 'AWS/DynamoDB', metricName, stat: 'Sum' });
        expect(metric.dimensions.TableName.Ref).toBe(tableId);
      }
    }
    expect(alarmNamed(stage, 'table-throttled-requests').Threshold).toBe(
      ALARM_THRESHOLDS[stage].tableThrottledRequests,
    );
  });

  it.each([
    ['payment-disputed', METRIC.paymentDisputed, 'each disputed payment'],
    ['refund-failed', METRIC.refundFailed, 'each refund that failed later'],
    [
      'payment-unmatched',
      METRIC.paymentUnmatched,
      'any Stripe payment that paid no order (the service refunded it: another intent, amount or currency)',
    ],
    [
      'invoice-still-due',
      METRIC.invoiceStillDue,
      "any paid order's invoice the every-minute job failed to number again (it stays due)",
    ],
  ] as const)('page on %s (the business metric %s): %s, at its first', (suffix, metricName, _what) => {
    const alarm = alarmNamed(stage, suffix);
    expect(onlyMetric(alarm)).toEqual({
      namespace: METRICS_NAMESPACE,
      metricName,
      dimensions: { service: 'ticketing-api', stage },
      stat: 'Sum',
    });
    expect(alarm).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
    });
  });

  it("watch the account's SES bounce and complaint rates before SES reviews the account", () => {
    const bounce = alarmNamed(stage, 'ses-bounce-rate');
    const complaint = alarmNamed(stage, 'ses-complaint-rate');
    expect(onlyMetric(bounce)).toEqual({
      namespace: 'AWS/SES',
      metricName: 'Reputation.BounceRate',
      dimensions: {},
      stat: 'Maximum',
    });
    expect(onlyMetric(complaint)).toEqual({
      namespace: 'AWS/SES',
      metricName: 'Reputation.ComplaintRate',
      dimensions: {},
      stat: 'Maximum',
    });
    expect(bounce.Threshold).toBeLessThan(0.05);
    expect(complaint.Threshold).toBeLessThan(0.001);
  });

  it('each say what to do first and link the dashboard, in the notification itself', () => {
    // `{Fn::Join: ['', [...]]}` (the region is a deploy-time value) as one string.
    const text = (value: any): string =>
      typeof value === 'string'
        ? value
        : value['Fn::Join'][1].map((part: any) => (typeof part === 'string' ? part : `\${${part.Ref}}`)).join('');
    const all = alarms(stage);
    expect(all.length).toBeGreaterThan(100);
    for (const alarm of all) {
      const description = text(alarm.AlarmDescription);
      expect(description, alarm.AlarmName).toMatch(
        / First: .{40,} Dashboard: https:\/\/console\.aws\.amazon\.com\/cloudwatch\/home\?region=\$\{AWS::Region\}#dashboards\/dashboard\/ticketing-/,
      );
      expect(description.length, alarm.AlarmName).toBeLessThanOrEqual(1024);
    }
  });

  it('are on a dashboard with the API, Lambda, DynamoDB and business metrics', () => {
    const dashboard = onlyResource(stages[stage].operations, 'AWS::CloudWatch::Dashboard');
    expect(dashboard.Properties.DashboardName).toBe(`ticketing-${stage}-operations`);
    // The body is a Fn::Join of JSON text and references: joined with placeholders, it parses.
    const parts = dashboard.Properties.DashboardBody['Fn::Join'][1] as unknown[];
    const body = JSON.parse(parts.map((part) => (typeof part === 'string' ? part : 'REF')).join(''));
    const graphs = new Map<string, unknown[][]>(
      body.widgets.filter((w: any) => w.type === 'metric').map((w: any) => [w.properties.title, w.properties.metrics]),
    );
    /** `[namespace, name, ...dimension pairs]` of a graph's plain metrics; expressions as their text. */
    const shown = (title: string) => {
      expect([...graphs.keys()]).toContain(title);
      return graphs
        .get(title)!
        .map((line) =>
          typeof line[0] === 'string'
            ? line.filter((part) => typeof part === 'string').join(' ')
            : (line[0] as any).expression,
        );
    };
    expect(shown('API requests')).toEqual([
      'AWS/ApiGateway Count ApiId REF',
      'AWS/ApiGateway 4xx ApiId REF',
      'AWS/ApiGateway 5xx ApiId REF',
    ]);
    expect(shown('API latency (ms)')).toHaveLength(3);
    for (const [title, metricName] of [
      ['Lambda errors per route', 'Errors'],
      ['Lambda p99 duration per route (ms)', 'Duration'],
      ['Lambda throttles per route', 'Throttles'],
    ]) {
      expect(shown(title!)).toEqual(routes.map(() => `AWS/Lambda ${metricName} FunctionName REF`));
    }
    expect(shown('DynamoDB consumed capacity')).toEqual([
      'AWS/DynamoDB ConsumedReadCapacityUnits TableName REF',
      'AWS/DynamoDB ConsumedWriteCapacityUnits TableName REF',
    ]);
    expect(shown('DynamoDB throttled requests')).toContain(
      `AWS/DynamoDB ThrottledRequests Operation GetItem TableName REF`,
    );
    expect(shown('DynamoDB system errors')).toContain(`AWS/DynamoDB SystemErrors Operation GetItem TableName REF`);
    const checkIns = shown('Check-ins admitted and refused (by reason)');
    expect(checkIns[0]).toBe(`${METRICS_NAMESPACE} ${METRIC.checkInAdmitted} service ticketing-api stage ${stage}`);
    expect(checkIns[1]).toBe(
      `SEARCH('{${METRICS_NAMESPACE},stage,reason,service} MetricName="${METRIC.checkInRefused}" stage="${stage}" service="ticketing-api"', 'Sum', 300)`,
    );
    expect(shown('Failed logins (by login)')).toEqual(
      ['legacy', 'idp', 'vendor', 'customer'].map(
        (login) => `${METRICS_NAMESPACE} ${METRIC.loginFailed} login ${login} service ticketing-api stage ${stage}`,
      ),
    );
  });

  it('leave cdk-nag with nothing unacknowledged', () => {
    expect(stages[stage].findings).toEqual([]);
  });
});

describe('data safety', () => {
  it('keeps point-in-time recovery on the table in every stage', () => {
    for (const stage of STAGE_NAMES) {
      const table = onlyResource(stages[stage].template, 'AWS::DynamoDB::GlobalTable');
      expect(table.Properties.Replicas[0].PointInTimeRecoverySpecification, stage).toEqual({
        PointInTimeRecoveryEnabled: true,
      });
    }
  });

  it('retains the prod table, user pools, data buckets, secrets and log groups except on a failed create; lets dev and staging go', () => {
    const kept = [
      'AWS::DynamoDB::GlobalTable',
      'AWS::Cognito::UserPool',
      'AWS::S3::Bucket',
      'AWS::SecretsManager::Secret',
      'AWS::Logs::LogGroup',
      'AWS::SQS::Queue',
    ];
    for (const stage of STAGE_NAMES) {
      const prod = stage === 'prod';
      // A bucket whose whole content a BucketDeployment writes at every deploy (the front ends' files) holds no data.
      const buildOutputs = new Set(
        Object.entries(resourcesOf(stages[stage].template, 'Custom::CDKBucketDeployment')).map(
          ([, deployment]) => deployment.Properties.DestinationBucketName.Ref,
        ),
      );
      for (const type of kept) {
        for (const [id, resource] of Object.entries(resourcesOf(stages[stage].template, type)).filter(
          ([id]) => !buildOutputs.has(id),
        )) {
          // RetainExceptOnCreate: a failed first deploy rolls back to nothing, so its retry meets no orphan.
          expect(resource.DeletionPolicy, `${stage} ${id}`).toBe(prod ? 'RetainExceptOnCreate' : 'Delete');
          expect(resource.UpdateReplacePolicy, `${stage} ${id}`).toBe(prod ? 'Retain' : 'Delete');
        }
      }
    }
  });

  it('protects no resource from deletion that a failed create would delete (the committed stages: none before they exist)', () => {
    for (const stage of STAGE_NAMES) {
      for (const [id, resource] of Object.entries(
        stages[stage].template.toJSON().Resources as Record<string, Resource>,
      ))
        if (deletionProtected(resource)) expect(resource.DeletionPolicy, `${stage} ${id}`).toBe('Retain');
      const table = onlyResource(stages[stage].template, 'AWS::DynamoDB::GlobalTable');
      expect(deletionProtected(table), stage).toBe(STAGE_FILES[stage].policy.deletionProtection);
    }
  });

  it('with deletionProtection (a stage that exists), protects the table and user pools, and keeps them whatever happens (Retain)', () => {
    const settings = { ...resolveStage((key) => ({ stage: 'prod' })[key]), deletionProtection: true };
    const stack = new Stack(new App(), 'Protected');
    singleTable(stack, 'Table', settings);
    new CustomerIdentity(stack, 'Customers', { settings });
    const protectedResources = Object.values(Template.fromStack(stack).toJSON().Resources as Record<string, Resource>)
      .filter((resource) => ['AWS::DynamoDB::GlobalTable', 'AWS::Cognito::UserPool'].includes(resource.Type))
      .map((resource) => ({
        type: resource.Type,
        protected: deletionProtected(resource),
        policy: resource.DeletionPolicy,
      }));
    expect(protectedResources).toEqual([
      { type: 'AWS::DynamoDB::GlobalTable', protected: true, policy: 'Retain' },
      { type: 'AWS::Cognito::UserPool', protected: true, policy: 'Retain' },
    ]);
  });

  it('names no retained resource: a re-created stage would find the name taken', () => {
    const NAMES = ['TableName', 'LogGroupName', 'QueueName', 'BucketName', 'Name', 'TopicName', 'FunctionName'];
    for (const stage of STAGE_NAMES) {
      for (const [id, resource] of Object.entries(
        stages[stage].template.toJSON().Resources as Record<string, Resource>,
      )) {
        if (!resource.DeletionPolicy?.startsWith('Retain')) continue;
        for (const property of NAMES) {
          const name = resource.Properties?.[property];
          // A name that holds the id of the stack that made it (AWS::StackId) is new with every created stack.
          if (name !== undefined) expect(JSON.stringify(name), `${stage} ${id} ${property}`).toContain('AWS::StackId');
        }
      }
    }
  });

  it('versions the photo bucket (waiver signatures, photos) in every stage, old versions expiring after 90 days in prod and 7 elsewhere', () => {
    const photos = (stage: StageName) =>
      Object.entries(resourcesOf(stages[stage].template, 'AWS::S3::Bucket')).find(([id]) => id.startsWith('Photos'))![1]
        .Properties;
    for (const stage of STAGE_NAMES) {
      expect(photos(stage).VersioningConfiguration, stage).toEqual({ Status: 'Enabled' });
      const days = stage === 'prod' ? NONCURRENT_DAYS_PROD : NONCURRENT_DAYS_OTHER;
      expect(photos(stage).LifecycleConfiguration.Rules, stage).toContainEqual(
        expect.objectContaining({ NoncurrentVersionExpiration: { NoncurrentDays: days }, Status: 'Enabled' }),
      );
    }
    expect([NONCURRENT_DAYS_PROD, NONCURRENT_DAYS_OTHER]).toEqual([90, 7]);
  });

  it('keeps logs for a week in dev, a month in staging and three months in prod, API access logs included', () => {
    for (const stage of STAGE_NAMES) {
      const groups = Object.entries(resourcesOf(stages[stage].template, 'AWS::Logs::LogGroup'));
      expect(groups.length).toBeGreaterThan(routes.length);
      for (const [id, group] of groups)
        expect(group.Properties.RetentionInDays, `${stage} ${id}`).toBe(RETENTION[stage]);
    }
  });
});

describe('alarm subscribers', () => {
  it("subscribes the stage file's addresses: staging and prod have one, dev none", () => {
    const subscribed = (stage: StageName) =>
      Object.values(resourcesOf(stages[stage].operations, 'AWS::SNS::Subscription')).map((s) => s.Properties);
    expect(subscribed('dev')).toEqual([]);
    for (const stage of ['staging', 'prod'] as const) {
      expect(subscribed(stage), stage).toEqual(
        STAGE_FILES[stage].alarms.emails.map((email) =>
          expect.objectContaining({ Protocol: 'email', Endpoint: email }),
        ),
      );
      expect(subscribed(stage).length, stage).toBeGreaterThan(0);
    }
  });

  it('replaces them for one deploy with -c alarmEmail, and notifies the existing topics of -c alarmTopicArn from every alarm', () => {
    const pager = 'arn:aws:sns:us-east-1:111122223333:pager-duty';
    // Every alarm takes the topics alike, the stage's and each route's: the sample's rows stand for the route table.
    const context = { stage: 'dev', alarmEmail: 'ops@example.com', alarmTopicArn: pager };
    const { stack } = synth({ context, routes: ROUTE_SAMPLE });
    const operations = Template.fromStack(stack.operations);
    expect(Object.values(resourcesOf(operations, 'AWS::SNS::Subscription')).map((s) => s.Properties.Endpoint)).toEqual([
      'ops@example.com',
    ]);
    const alarms = Object.values(resourcesOf(operations, 'AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThan(10);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toHaveLength(2);
      expect(alarm.Properties.AlarmActions).toContain(pager);
      expect(alarm.Properties.OKActions).toContain(pager);
    }
  });

  it('rejects something that is not an address', () => {
    expect(() => synth({ context: { stage: 'dev', alarmEmail: 'ops' } })).toThrow(/alarmEmail/);
  });
});

describe.each(STAGE_NAMES)('limits of %s', (stage) => {
  const policy = {
    name: stage,
    reservedConcurrency: STAGE_FILES[stage].policy.reservedConcurrency,
    onSale: STAGE_FILES[stage].policy.onSale,
  };
  const plans = () => new Map(routes.map((row) => [row.handler, concurrencyOf(row, policy)]));

  it("reserves concurrency from the route table: the gate's routes guaranteed, each its own, logins, the photo upload and the lists capped, the rest sharing (each with its reason)", () => {
    const functions = routeFunctions(stages[stage].template);
    expect(functions.size).toBe(routes.length);
    for (const [handler, plan] of plans()) {
      expect(plan.reason.length, handler).toBeGreaterThan(10);
      expect(functions.get(handler)!.fn.Properties.ReservedConcurrentExecutions, handler).toBe(plan.reserved);
    }
    const reserved = [...plans().values()].reduce((sum, plan) => sum + (plan.reserved ?? 0), 0);
    if (stage === 'dev') expect(reserved).toBe(0);
    else {
      for (const handler of [
        'tickets/check-in',
        'gate/scans',
        'gate/gate-list',
        'auth/legacy-login',
        'my-account/login',
        'tickets/profile-photo',
        'tickets/list',
        'ticket/list',
      ])
        expect(plans().get(handler)!.reserved, handler).toBeGreaterThan(0);
      // The gate's three functions, in the template: a reservation each, so devices reconnecting together take no other route's pool.
      for (const handler of ['tickets/check-in', 'gate/scans', 'gate/gate-list'])
        expect(functions.get(handler)!.fn.Properties.ReservedConcurrentExecutions, handler).toBeGreaterThanOrEqual(5);
      // AWS keeps 100 of an account's default 1,000 unreserved; staging and prod may share an account. The on-sale's
      // reservations come on top: a stage sized for one asks for the quota it needs (infra/README.md, preflight).
      const sale = new Set<string>(Object.values(SALE_FUNCTIONS));
      const beyondSale = [...plans()].reduce(
        (sum, [handler, plan]) => sum + (sale.has(handler) ? 0 : (plan.reserved ?? 0)),
        0,
      );
      expect(beyondSale).toBeLessThanOrEqual(450);
      for (const fn of ['hold', 'checkout', 'webhook'] as const)
        expect(plans().get(SALE_FUNCTIONS[fn])!.reserved, fn).toBe(saleConcurrency(policy.onSale!)[fn]);
    }
  });

  it("alarms on each capped function's throttles, named after its route", () => {
    const capped = routes.filter((row) => concurrencyOf(row, policy).reserved !== undefined);
    const throttleAlarms = alarms(stage).filter(
      (alarm) =>
        String(alarm.AlarmName).endsWith('-throttles') && alarm.AlarmName !== `ticketing-${stage}-lambda-throttles`,
    );
    expect(throttleAlarms.map((alarm) => alarm.AlarmName).sort()).toEqual(
      capped.map((row) => `ticketing-${stage}-${row.handler.replace(/[^A-Za-z0-9]+/g, '-')}-throttles`).sort(),
    );
    for (const alarm of throttleAlarms) expect(onlyMetric(alarm).metricName).toBe('Throttles');
  });

  it(`traces every function through Lambda's own X-Ray integration ${stage === 'dev' ? 'not in dev' : 'in staging and prod'} (the routes, the webhooks, the reservations' lapsing job, the paid orders' issue, the migration runner)`, () => {
    const functions = Object.entries(resourcesOf(stages[stage].template, 'AWS::Lambda::Function')).filter(
      // CDK's own helpers (the trigger's, the bucket deployments') are not ours to configure.
      ([, fn]) => fn.Properties.Runtime === 'nodejs22.x',
    );
    expect(functions.length).toBe(routes.length + 5);
    for (const [id, fn] of functions)
      expect(fn.Properties.TracingConfig?.Mode, id).toBe(stage === 'dev' ? undefined : 'Active');
  });

  it("reserves in the template exactly what preflight counts (every function's reservation, the issuing consumer's included; the runner's none)", () => {
    const reservedInTemplate = Object.values(resourcesOf(stages[stage].template, 'AWS::Lambda::Function')).reduce(
      (sum, fn) => sum + (fn.Properties.ReservedConcurrentExecutions ?? 0),
      0,
    );
    expect(reservedInTemplate).toBe(stageReservations(routes, policy));
    expect(migrationRunner(stages[stage].template).fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });
});
