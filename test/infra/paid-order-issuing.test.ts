import type { CfnElement } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAID_ORDER_FILTER } from '#shared/selling/data/paid-order-filter';
import { SALE_FUNCTIONS, saleConcurrency, saleWarmThroughput } from '../../infra/sale-capacity.ts';
import { STAGE_NAMES, type StageName } from '../../infra/stages.ts';
import { stage as devFile } from '../../infra/stages/dev.ts';
import { stage as prodFile } from '../../infra/stages/prod.ts';
import { stage as stagingFile } from '../../infra/stages/staging.ts';
import { onlyResource, type Resource, resourcesOf, routeFunctions, statementsOf, synth } from './synth.ts';

/**
 * The stage ready for the rush: the paid orders' issue behind the Stripe webhook (infra/paid-order-issuing.ts: the
 * consumer, its stream mapping and on-failure queue), the sale path's reserved concurrency and the table's warm
 * throughput from the stage file's `policy.onSale` (infra/sale-capacity.ts), on the synthesised templates.
 */
/** What each stage file expects of its on-sale (none in dev). */
const onSaleOf = (name: StageName) => ({ dev: devFile, staging: stagingFile, prod: prodFile })[name].policy.onSale;
const stages = {} as Record<StageName, ReturnType<typeof synth> & { consumer: Resource; consumerId: string }>;

beforeAll(() => {
  for (const name of STAGE_NAMES) {
    const built = synth({ context: { stage: name } });
    const consumerId = built.stack.getLogicalId(built.stack.issuing.consumer.node.defaultChild as CfnElement);
    const consumer = resourcesOf(built.template, 'AWS::Lambda::Function')[consumerId]!;
    stages[name] = { ...built, consumer, consumerId };
  }
});

const mappingOf = (name: StageName) =>
  Object.values(resourcesOf(stages[name].template, 'AWS::Lambda::EventSourceMapping')).find(
    (resource) => resource.Properties.FunctionName.Ref === stages[name].consumerId,
  )!.Properties;

describe('the issuing consumer', () => {
  it("reads the table's stream filtered to paid orders entering pending: batches of 100, 10 per shard, failures bisected and named, given up to a queue", () => {
    for (const name of STAGE_NAMES) {
      const mapping = mappingOf(name);
      expect(mapping, name).toMatchObject({
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 100,
        MaximumBatchingWindowInSeconds: 0,
        ParallelizationFactor: 10,
        BisectBatchOnFunctionError: true,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        MaximumRetryAttempts: 10,
        MaximumRecordAgeInSeconds: 3600,
        FilterCriteria: { Filters: [{ Pattern: JSON.stringify(PAID_ORDER_FILTER) }] },
      });
      const queue = Object.keys(resourcesOf(stages[name].template, 'AWS::SQS::Queue')).find((id) =>
        JSON.stringify(mapping.DestinationConfig).includes(id),
      );
      expect(queue, name).toMatch(/^IssuingGivenUp/);
    }
  });

  it('may read the stream and is granted no Scan', () => {
    const statements = statementsOf(stages.prod.template, stages.prod.consumer);
    const actions = statements.flatMap((statement) => [statement.Action].flat());
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetRecords', 'dynamodb:GetShardIterator']));
    expect(actions).not.toContain('dynamodb:Scan');
  });

  it('pages on its errors and on every batch given up (its orders wait for the sweep), in every stage', () => {
    for (const name of STAGE_NAMES) {
      const alarms = Object.values(resourcesOf(stages[name].template, 'AWS::CloudWatch::Alarm')).map(
        (alarm) => alarm.Properties,
      );
      for (const suffix of ['paid-orders-errors', 'paid-orders-given-up']) {
        const alarm = alarms.find((each) => each.AlarmName === `ticketing-${name}-${suffix}`);
        expect(alarm, `${name} ${suffix}`).toMatchObject({ Threshold: 1, EvaluationPeriods: 1 });
        expect(JSON.stringify(alarm!.AlarmDescription)).toContain('First: ');
      }
    }
  });

  it("reserves the on-sale's concurrency in staging and prod, none in dev", () => {
    expect(stages.dev.consumer.Properties.ReservedConcurrentExecutions).toBeUndefined();
    for (const name of ['staging', 'prod'] as const) {
      const sale = onSaleOf(name)!;
      expect(stages[name].consumer.Properties.ReservedConcurrentExecutions, name).toBe(saleConcurrency(sale).issue);
    }
  });
});

describe("the sale's path", () => {
  it('prod is sized for two events of 1,000 holds and 300 paid orders a second each', () => {
    expect(prodFile.policy.onSale).toEqual({ events: 2, holdsPerSecond: 1000, paidOrdersPerSecond: 300 });
    // Little's law with twice the mean: hold 2,000/s × 0.1 s, checkout 600/s × 0.5 s, webhook 600/s × 0.1 s, issue 600/s × 0.5 s.
    expect(saleConcurrency(prodFile.policy.onSale!)).toEqual({ hold: 400, checkout: 600, webhook: 120, issue: 600 });
  });

  it("reserves the hold, the checkout and the Stripe webhook the on-sale's concurrency, per stage", () => {
    for (const name of STAGE_NAMES) {
      const functions = routeFunctions(stages[name].template);
      const sale = onSaleOf(name);
      for (const fn of ['hold', 'checkout', 'webhook'] as const) {
        const reserved = functions.get(SALE_FUNCTIONS[fn])!.fn.Properties.ReservedConcurrentExecutions;
        if (name === 'dev') expect(reserved, `${name} ${fn}`).toBeUndefined();
        else expect(reserved, `${name} ${fn}`).toBe(saleConcurrency(sale!)[fn]);
      }
    }
  });
});

describe("the table's warm throughput", () => {
  const table = (name: StageName) => onlyResource(stages[name].template, 'AWS::DynamoDB::GlobalTable').Properties;

  it("prod's takes the target's write units a second from the first one: the table, and its indexes one per deploy", () => {
    const warm = table('prod').WarmThroughput;
    expect(warm).toEqual({ WriteUnitsPerSecond: 164_600, ReadUnitsPerSecond: 56_000 });
    // What the sale writes (the heat bench's 240.6 a paid order, rounded up) × 600 a second + 10 a hold × 2,000 a second.
    expect(warm.WriteUnitsPerSecond).toBeGreaterThanOrEqual(240.6 * 600 + 10 * 2000);
    // The first `table.warmIndexes` (1 in the committed file: a release changes one GSI at a time), the table's figure.
    const indexes = table('prod').GlobalSecondaryIndexes as { IndexName: string; WarmThroughput?: unknown }[];
    expect(prodFile.table.warmIndexes).toBe(1);
    expect(indexes.map((index) => index.WarmThroughput)).toEqual(indexes.map((_, at) => (at < 1 ? warm : undefined)));
  });

  it("staging's is its rehearsal's (at least a new table's own), dev's none", () => {
    expect(table('staging').WarmThroughput).toEqual({
      WriteUnitsPerSecond: saleWarmThroughput(onSaleOf('staging')!).writeUnitsPerSecond,
      ReadUnitsPerSecond: 12_000,
    });
    expect(table('dev').WarmThroughput).toBeUndefined();
  });
});
