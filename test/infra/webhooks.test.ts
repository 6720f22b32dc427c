import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_SCHEMA } from '#shared/data/table-schema';
import { METRIC, METRICS_NAMESPACE } from '#shared/metric-names';
import { WEBHOOK_THRESHOLDS } from '../../infra/operations.ts';
import { FIRST_STEPS, type RunbookEntry } from '../../infra/runbook.ts';
import { STAGE_FILES, STAGE_NAMES, type StageName } from '../../infra/stages.ts';
import type { TicketingStack } from '../../infra/ticketing-stack.ts';
import { WEBHOOK_CHANGE_FILTER } from '#shared/webhooks/data/webhook-change-filter';
import { ticketChangeCapacity } from '../../infra/sale-capacity.ts';
import { stage as prodFile } from '../../infra/stages/prod.ts';
import { matchesFilter } from '../../bin/local/event-filter.ts';
import {
  actionsOf,
  onlyId,
  onlyResource,
  type Resource,
  resourcesOf,
  routeFunctions,
  sealingKeyId,
  statementsOf,
  synth,
} from './synth.ts';

/**
 * The webhooks' side of a stage (infra/webhooks.ts): the table's stream, its mapping to the
 * consumer, the on-failure queue, the dispatcher's schedule, their grants and environment, and
 * the alarms (infra/operations.ts) with their runbook lines.
 */

interface Stage {
  stack: TicketingStack;
  /** The stage as one template (synth.ts `wholeStage`). */
  template: Template;
  /** The logical ids of the consumer, the dispatcher, the queue and the table. */
  ids: { ticketChanges: string; dispatcher: string; queue: string; table: string };
}

const stageOf = (context: Record<string, unknown>): Stage => {
  const { stack, template } = synth({ context });
  const id = (construct: { node: { defaultChild?: unknown } }) =>
    stack.getLogicalId(construct.node.defaultChild as CfnElement);
  return {
    stack,
    template,
    ids: {
      ticketChanges: id(stack.webhooks.ticketChanges),
      dispatcher: id(stack.webhooks.dispatcher),
      queue: id(stack.webhooks.failedChanges),
      table: onlyId(template, 'AWS::DynamoDB::GlobalTable'),
    },
  };
};

const stages = {} as Record<StageName, Stage>;

beforeAll(async () => {
  for (const stage of STAGE_NAMES) stages[stage] = stageOf({ stage });
});

const functionOf = (stage: Stage, id: string) => resourcesOf(stage.template, 'AWS::Lambda::Function')[id]!;
const environmentOf = (fn: Resource): Record<string, unknown> => fn.Properties.Environment?.Variables ?? {};
/** The webhooks' mapping: the one whose function is the consumer (the paid orders' issue has its own: paid-order-issuing.test.ts). */
const mapping = (stage: Stage) =>
  Object.values(resourcesOf(stage.template, 'AWS::Lambda::EventSourceMapping')).find(
    (resource) => resource.Properties.FunctionName.Ref === stage.ids.ticketChanges,
  )!.Properties;
const roleOf = (fn: Resource): string => fn.Properties.Role['Fn::GetAtt'][0];
/** The roles whose policies allow `action` on `resource` (CDK's helper functions included). */
const rolesGranted = (template: Template, action: string, resource: unknown): string[] =>
  Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) =>
      policy.Properties.PolicyDocument.Statement.some(
        (s: any) =>
          actionsOf([s]).includes(action) &&
          [s.Resource].flat().some((r) => JSON.stringify(r) === JSON.stringify(resource)),
      ),
    )
    .flatMap((policy) => policy.Properties.Roles.map((role: { Ref: string }) => role.Ref));

describe('the table stream', () => {
  it('carries both images of every change (TABLE_SCHEMA.streamViewType), in every stage', () => {
    expect(TABLE_SCHEMA.streamViewType).toBe('NEW_AND_OLD_IMAGES');
    for (const stage of STAGE_NAMES) {
      const table = onlyResource(stages[stage].template, 'AWS::DynamoDB::GlobalTable');
      expect(table.Properties.StreamSpecification, stage).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    }
  });

  it("is mapped to the consumer alone: the ticket record's, the event item's and the order item's changes only (WEBHOOK_CHANGE_FILTER), from the trim horizon, up to 100 within 1 s, 4 batches per shard", () => {
    const dev = stages.dev;
    // The order item's records catch up its list entries (shared/selling/data/order-list-entries.ts); nothing else.
    expect(WEBHOOK_CHANGE_FILTER.dynamodb.Keys.SK.S).toEqual(['TICKET', 'EVENT', 'ORDER']);
    expect(mapping(dev)).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [dev.ids.table, 'StreamArn'] },
      FunctionName: { Ref: dev.ids.ticketChanges },
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify(WEBHOOK_CHANGE_FILTER) }] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 0,
      ParallelizationFactor: 4,
    });
    expect(mapping(dev).Enabled ?? true).toBe(true);
  });

  it("keeps pace with prod's on-sale, so the search entries it writes lag by a poll and a batch (ticketChangeCapacity)", () => {
    const prod = stages.prod;
    const { BatchSize, ParallelizationFactor, MaximumBatchingWindowInSeconds } = mapping(prod);
    expect(MaximumBatchingWindowInSeconds).toBe(0);
    const warm = onlyResource(prod.template, 'AWS::DynamoDB::GlobalTable').Properties.WarmThroughput;
    const pace = ticketChangeCapacity(
      prodFile.policy.onSale!,
      { batchSize: BatchSize, parallelizationFactor: ParallelizationFactor },
      warm.WriteUnitsPerSecond,
    );
    // Two events × 300 paid orders × (2 tickets + the order's 3 writes), twice for the burst: 6,000 records a second.
    expect(pace.needed).toBe(6_000);
    expect(pace.capacity).toBeGreaterThanOrEqual(pace.needed);
    // Each shard's share stays under an eighth of what its 4 batches of 100 take in TICKET_CHANGE_BATCH_SECONDS: that
    // time is an estimate, and a batch slower by as much, or keys hashed unevenly over the shards, still keep pace.
    expect(pace.needed / pace.shards).toBeLessThan(pace.perShard / 8);
  });

  it("passes an event's creation, edits and deletion (the event.* webhook types) and a ticket's changes, nothing else", () => {
    const [filter] = mapping(stages.dev).FilterCriteria.Filters as { Pattern: string }[];
    const pattern = JSON.parse(filter!.Pattern);
    const record = (eventName: string, PK: string, SK: string) => ({
      eventName,
      dynamodb: { Keys: { PK: { S: PK }, SK: { S: SK } } },
    });
    for (const eventName of ['INSERT', 'MODIFY', 'REMOVE'])
      expect(matchesFilter(record(eventName, 'EVENT#7', 'EVENT'), pattern), eventName).toBe(true);
    for (const eventName of ['INSERT', 'MODIFY'])
      expect(matchesFilter(record(eventName, 'TICKET#9', 'TICKET'), pattern), eventName).toBe(true);
    // The event's other items (its types, history entries), other records: not the consumer's.
    expect(matchesFilter(record('INSERT', 'EVENT#7', 'TICKET_TYPE#0000000012'), pattern)).toBe(false);
    expect(matchesFilter(record('INSERT', 'EVENT_HISTORY#7', 'VERSION#0000000002'), pattern)).toBe(false);
    expect(matchesFilter(record('INSERT', 'WEBHOOK#1', 'DELIVERY#1'), pattern)).toBe(false);
  });

  it('retries a failing batch from the first change not recorded, split in halves, 10 times and for 12 hours at most, then sends its pointer to the on-failure queue', () => {
    const dev = stages.dev;
    expect(mapping(dev)).toMatchObject({
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: 12 * 3600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [dev.ids.queue, 'Arn'] } } },
    });
    // Under the stream's 24 hours: a pointer to a record the stream still holds.
    expect(mapping(dev).MaximumRecordAgeInSeconds).toBeLessThan(24 * 3600);
  });

  it('keeps those pointers 14 days in a queue encrypted by SQS that refuses plain HTTP, written only by the consumer', () => {
    for (const stage of STAGE_NAMES) {
      const { template, ids } = stages[stage];
      const queue = resourcesOf(template, 'AWS::SQS::Queue')[ids.queue]!;
      expect(queue.Properties, stage).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86400 });
      expect(queue.DeletionPolicy, stage).toBe(stage === 'prod' ? 'RetainExceptOnCreate' : 'Delete');
      const policy = Object.values(resourcesOf(template, 'AWS::SQS::QueuePolicy')).find((p) =>
        p.Properties.Queues.some((q: unknown) => JSON.stringify(q) === JSON.stringify({ Ref: ids.queue })),
      )!;
      expect(policy.Properties.PolicyDocument.Statement, stage).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
      expect(rolesGranted(template, 'sqs:SendMessage', { 'Fn::GetAtt': [ids.queue, 'Arn'] }), stage).toEqual([
        roleOf(functionOf(stages[stage], ids.ticketChanges)),
      ]);
    }
  });

  it("lets the consumers read this table's stream (the webhooks', the paid orders' issue), and no other function any stream", () => {
    const { template, ids, stack } = stages.dev;
    const streamActions = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];
    const streamArn = { 'Fn::GetAtt': [ids.table, 'StreamArn'] };
    const issuing = stack.getLogicalId(stack.issuing.consumer.node.defaultChild as CfnElement);
    for (const action of streamActions)
      expect(rolesGranted(template, action, streamArn).sort(), action).toEqual(
        [roleOf(functionOf(stages.dev, ids.ticketChanges)), roleOf(functionOf(stages.dev, issuing))].sort(),
      );
    // Nothing names the stream but the two mappings and their grants.
    const mentions = JSON.stringify(template.toJSON().Resources).split(JSON.stringify(streamArn)).length - 1;
    expect(mentions).toBe(4);
  });
});

describe('the dispatcher', () => {
  it('runs every minute, one run per tick: a tick is not retried, nor kept past a minute', () => {
    const { template, ids } = stages.dev;
    // The dispatcher's own rule (the reservations' lapsing job has its own: test/infra/reservations.test.ts).
    const [ruleId, rule] = Object.entries(resourcesOf(template, 'AWS::Events::Rule')).find(([, one]) =>
      JSON.stringify(one.Properties.Targets).includes(ids.dispatcher),
    )!;
    expect(rule.Properties).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [
        {
          Arn: { 'Fn::GetAtt': [ids.dispatcher, 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 },
        },
      ],
    });
    const permissions = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter(
      (p) =>
        p.Properties.Principal === 'events.amazonaws.com' &&
        JSON.stringify(p.Properties.FunctionName).includes(ids.dispatcher),
    );
    expect(permissions.map((p) => p.Properties)).toEqual([
      expect.objectContaining({
        Action: 'lambda:InvokeFunction',
        FunctionName: { 'Fn::GetAtt': [ids.dispatcher, 'Arn'] },
        SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
      }),
    ]);
    const asyncConfigs = Object.values(resourcesOf(template, 'AWS::Lambda::EventInvokeConfig')).filter(
      (config) => config.Properties.FunctionName.Ref === ids.dispatcher,
    );
    expect(asyncConfigs.map((config) => config.Properties)).toEqual([
      expect.objectContaining({ MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 }),
    ]);
  });

  it('works 75 s a run and reserves no concurrency (overlapping runs are safe: attempts are claimed by conditional writes)', () => {
    for (const stage of STAGE_NAMES) {
      const { ids } = stages[stage];
      const dispatcher = functionOf(stages[stage], ids.dispatcher).Properties;
      expect(dispatcher, stage).toMatchObject({ Timeout: 75, MemorySize: 512 });
      expect(dispatcher.ReservedConcurrentExecutions, stage).toBeUndefined();
    }
  });
});

describe('the webhook functions', () => {
  it('give the consumer 5 minutes for a batch of first attempts (100 changes, 10 attempts of up to 10 s at once) and 512 MB', () => {
    const { ids } = stages.dev;
    expect(functionOf(stages.dev, ids.ticketChanges).Properties).toMatchObject({ Timeout: 300, MemorySize: 512 });
  });

  it("get the environment every route function checks at start, the table's name and the stage sender; nothing a request needs", () => {
    for (const stage of STAGE_NAMES) {
      const { template, ids } = stages[stage];
      const route = environmentOf([...routeFunctions(template).values()][0]!.fn);
      for (const id of [ids.ticketChanges, ids.dispatcher]) {
        const fn = functionOf(stages[stage], id);
        expect(fn.Properties, `${stage} ${id}`).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'] });
        expect(fn.Properties.TracingConfig?.Mode, `${stage} ${id}`).toBe(stage === 'dev' ? undefined : 'Active');
        const env = environmentOf(fn);
        for (const name of [
          'STAGE',
          'SITE_AUTH_METHOD',
          'JWT_ISSUER',
          'JWT_PUBLIC_KEYS',
          'ADMIN_ORIGINS',
          'PORTAL_ORIGINS',
          'LOG_LEVEL',
          'POWERTOOLS_SERVICE_NAME',
          'NODE_OPTIONS',
        ])
          expect(env[name], `${stage} ${id} ${name}`).toEqual(route[name]);
        expect(env.TABLE_NAME).toEqual({ Ref: ids.table });
        expect(env.EMAIL_FROM).toBe(STAGE_FILES[stage].mail.from);
        expect(env.PORTAL_URL).toBeDefined();
        // No request reaches them: no origin check, no tokens signed, no admin UI links.
        for (const name of ['ORIGIN_VERIFY_SECRET', 'JWT_SIGNING_KEY_SECRET', 'ADMIN_UI_URL'])
          expect(env[name], `${stage} ${id} ${name}`).toBeUndefined();
      }
    }
  });

  it('may read and write the table, mail from the stage sender, read the key sealing the signing secrets and write their logs: no other secret, Cognito or S3', () => {
    for (const stage of STAGE_NAMES) {
      const { template, ids } = stages[stage];
      for (const [id, queue] of [
        [ids.ticketChanges, ['sqs']],
        [ids.dispatcher, []],
      ] as const) {
        const statements = statementsOf(template, functionOf(stages[stage], id));
        const services = new Set(actionsOf(statements).map((action) => action.split(':')[0]));
        expect([...services].sort(), `${stage} ${id}`).toEqual(
          ['dynamodb', 'logs', 'secretsmanager', 'ses', ...queue, ...(stage === 'dev' ? [] : ['xray'])].sort(),
        );
        // Secrets Manager: GetSecretValue on the sealing key only (infra/webhook-secrets-key.ts).
        const key = { Ref: sealingKeyId(stages[stage].template) };
        expect(
          statements.filter((s) => actionsOf([s]).some((a) => a.startsWith('secretsmanager:'))),
          `${stage} ${id}`,
        ).toEqual([expect.objectContaining({ Action: 'secretsmanager:GetSecretValue', Resource: key })]);
        expect(environmentOf(functionOf(stages[stage], id)).SEALING_KEY_SECRET).toEqual(key);
        const onTable = actionsOf(
          statements.filter((s) =>
            JSON.stringify(s.Resource).includes(JSON.stringify({ 'Fn::GetAtt': [ids.table, 'Arn'] })),
          ),
        );
        expect(onTable, `${stage} ${id}`).toEqual(
          expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem']),
        );
        const ses = statements.filter((s) => actionsOf([s]).some((a) => a.startsWith('ses:')));
        expect(ses, `${stage} ${id}`).toEqual([
          expect.objectContaining({
            Action: ['ses:SendEmail', 'ses:SendRawEmail'],
            Condition: { StringEquals: { 'ses:FromAddress': environmentOf(functionOf(stages[stage], id)).EMAIL_FROM } },
          }),
        ]);
      }
    }
  });

  it('sets no WEBHOOK_* variable on any function of any stage (WEBHOOK_LOCAL_RECEIVERS=allow would let receivers on 127.0.0.1)', () => {
    for (const stage of STAGE_NAMES) {
      const functions = Object.entries(resourcesOf(stages[stage].template, 'AWS::Lambda::Function'));
      expect(functions.length).toBeGreaterThan(60);
      for (const [id, fn] of functions) {
        const names = Object.keys(environmentOf(fn));
        expect(
          names.filter((name) => name.startsWith('WEBHOOK_')),
          `${stage} ${id}`,
        ).toEqual([]);
      }
    }
  });
});

/** What an alarm watches, in either form CDK renders: a plain metric, or the MetricStat of `Metrics` (a labelled one). */
function watched(alarm: Record<string, any>) {
  expect(alarm.Metrics?.length ?? 1).toBe(1);
  const stat = alarm.Metrics?.[0].MetricStat;
  const metric = stat ? { ...stat.Metric, Stat: stat.Stat, Period: stat.Period } : { ...alarm, Stat: alarm.Statistic };
  return {
    namespace: metric.Namespace,
    metricName: metric.MetricName,
    dimensions: Object.fromEntries((metric.Dimensions ?? []).map((d: any) => [d.Name, d.Value])),
    stat: metric.Stat,
    period: metric.Period,
  };
}

const fiveMinutes = (namespace: string, metricName: string, dimensions: Record<string, unknown>, stat: string) => ({
  namespace,
  metricName,
  dimensions,
  stat,
  period: 300,
});
const atLeastOnce = { Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1 };

/** Each webhook alarm: the metric it watches and when it fires. */
const WEBHOOK_ALARMS: Record<
  Extract<RunbookEntry, `webhook-${string}`>,
  (ids: Stage['ids'], stage: StageName) => { metric: ReturnType<typeof watched>; fires: Record<string, unknown> }
> = {
  'webhook-deliveries-dead': (_, stage) => ({
    metric: fiveMinutes(METRICS_NAMESPACE, METRIC.webhookDeliveryDead, { service: 'ticketing-api', stage }, 'Sum'),
    fires: atLeastOnce,
  }),
  'webhook-disabled': (_, stage) => ({
    metric: fiveMinutes(METRICS_NAMESPACE, METRIC.webhookDisabled, { service: 'ticketing-api', stage }, 'Sum'),
    fires: atLeastOnce,
  }),
  'webhook-oldest-pending-age': (_, stage) => ({
    metric: fiveMinutes(
      METRICS_NAMESPACE,
      METRIC.webhookOldestPendingAge,
      { service: 'ticketing-api', stage },
      'Maximum',
    ),
    fires: {
      Threshold: WEBHOOK_THRESHOLDS.oldestPendingSeconds,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 3,
      // The dispatcher reports every minute: no reading for 15 minutes means it does not run.
      TreatMissingData: 'breaching',
    },
  }),
  'webhook-stream-iterator-age': (ids) => ({
    metric: fiveMinutes('AWS/Lambda', 'IteratorAge', { FunctionName: { Ref: ids.ticketChanges } }, 'Maximum'),
    fires: {
      Threshold: WEBHOOK_THRESHOLDS.iteratorAgeMs,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
    },
  }),
  'webhook-stream-given-up': (ids) => ({
    metric: fiveMinutes(
      'AWS/SQS',
      'ApproximateNumberOfMessagesVisible',
      { QueueName: { 'Fn::GetAtt': [ids.queue, 'QueueName'] } },
      'Maximum',
    ),
    fires: atLeastOnce,
  }),
  'webhook-stream-errors': (ids) => ({
    metric: fiveMinutes('AWS/Lambda', 'Errors', { FunctionName: { Ref: ids.ticketChanges } }, 'Sum'),
    fires: atLeastOnce,
  }),
  'webhook-dispatcher-errors': (ids) => ({
    metric: fiveMinutes('AWS/Lambda', 'Errors', { FunctionName: { Ref: ids.dispatcher } }, 'Sum'),
    fires: atLeastOnce,
  }),
};

/** An alarm's description as text (the dashboard link's region is a deploy-time value). */
const text = (value: any): string =>
  typeof value === 'string'
    ? value
    : value['Fn::Join'][1].map((part: any) => (typeof part === 'string' ? part : '?')).join('');

describe.each(STAGE_NAMES)('the webhook alarms of %s', (stage) => {
  const alarmNamed = (suffix: string) =>
    Object.values(resourcesOf(stages[stage].template, 'AWS::CloudWatch::Alarm')).find(
      (alarm) => alarm.Properties.AlarmName === `ticketing-${stage}-${suffix}`,
    )?.Properties;

  it.each(Object.keys(WEBHOOK_ALARMS) as (keyof typeof WEBHOOK_ALARMS)[])(
    '%s watches its metric, notifies the stage topic when it fires and clears, and says what to do first',
    (suffix) => {
      const alarm = alarmNamed(suffix);
      expect(alarm, suffix).toBeDefined();
      const { metric, fires } = WEBHOOK_ALARMS[suffix](stages[stage].ids, stage);
      expect(watched(alarm!)).toEqual(metric);
      expect(alarm).toMatchObject({ TreatMissingData: 'notBreaching', ...fires });
      const topic = { Ref: onlyId(Template.fromStack(stages[stage].stack.operations), 'AWS::SNS::Topic') };
      expect(alarm!.AlarmActions).toEqual([topic]);
      expect(alarm!.OKActions).toEqual([topic]);
      expect(text(alarm!.AlarmDescription)).toContain(` First: ${FIRST_STEPS[suffix]} Dashboard: `);
    },
  );

  it('are on the operations dashboard', () => {
    const dashboard = onlyResource(Template.fromStack(stages[stage].stack.operations), 'AWS::CloudWatch::Dashboard');
    const parts = dashboard.Properties.DashboardBody['Fn::Join'][1] as unknown[];
    const body = JSON.parse(parts.map((part) => (typeof part === 'string' ? part : 'REF')).join(''));
    const graphs = new Map<string, string[]>(
      body.widgets
        .filter((w: any) => w.type === 'metric')
        .map((w: any) => [w.properties.title, w.properties.metrics.map((line: unknown[]) => `${line[0]} ${line[1]}`)]),
    );
    expect(graphs.get('Webhooks: dead deliveries')).toEqual([`${METRICS_NAMESPACE} ${METRIC.webhookDeliveryDead}`]);
    expect(graphs.get('Webhooks: subscriptions disabled')).toEqual([`${METRICS_NAMESPACE} ${METRIC.webhookDisabled}`]);
    expect(graphs.get('Webhooks: oldest undelivered message (s)')).toEqual([
      `${METRICS_NAMESPACE} ${METRIC.webhookOldestPendingAge}`,
    ]);
    expect(graphs.get('Webhooks: stream consumer behind the table (ms)')).toEqual(['AWS/Lambda IteratorAge']);
    expect(graphs.get('Webhooks: errors and stream batches given up')).toEqual([
      'AWS/Lambda Errors',
      'AWS/Lambda Errors',
      'AWS/SQS ApproximateNumberOfMessagesVisible',
    ]);
  });
});

describe('a stage switched to a restored table (README "Restoring the table")', () => {
  const RESTORED = 'ticketing-prod-restored-20250301';
  const STREAM = `arn:aws:dynamodb:us-east-1:444455556666:table/${RESTORED}/stream/2025-03-01T10:00:00.000`;

  it("moves the one mapping, and the consumer's stream grant, to the restored table's stream; the own table keeps its stream, unread", () => {
    const restored = stageOf({ stage: 'prod', tableName: RESTORED, tableStreamArn: STREAM });
    const own = stages.prod;
    // The same mapping (its logical id), on the other stream: CloudFormation replaces it, from that stream's trim horizon.
    expect(Object.keys(resourcesOf(restored.template, 'AWS::Lambda::EventSourceMapping'))).toEqual(
      Object.keys(resourcesOf(own.template, 'AWS::Lambda::EventSourceMapping')),
    );
    expect(mapping(restored)).toEqual({ ...mapping(own), EventSourceArn: STREAM });
    const statements = statementsOf(restored.template, functionOf(restored, restored.ids.ticketChanges));
    expect(actionsOf(statements.filter((s) => s.Resource === STREAM))).toEqual(
      expect.arrayContaining(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']),
    );
    const json = JSON.stringify(restored.template.toJSON().Resources);
    expect(json).not.toContain(JSON.stringify({ 'Fn::GetAtt': [restored.ids.table, 'StreamArn'] }));
    expect(onlyResource(restored.template, 'AWS::DynamoDB::GlobalTable').Properties.StreamSpecification).toEqual({
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    });
    expect(environmentOf(functionOf(restored, restored.ids.dispatcher)).TABLE_NAME).toBe(RESTORED);
  });
});
