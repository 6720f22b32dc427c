import { ComparisonOperator } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Duration } from 'aws-cdk-lib';
import type { AddAlarm } from './service-alarms.ts';

/**
 * The paid orders' issue behind the Stripe webhook (infra/paid-order-issuing.ts): a buyer paid and waits for tickets,
 * so each failure pages as it comes. An error is retried by the mapping (nothing lost); a batch given up on leaves its
 * orders `pending` for the sweep of stuck orders, which a person should see finish.
 */
export function issuingAlarms(
  add: AddAlarm,
  name: (suffix: string) => string,
  issuing: { consumer: IFunction; givenUp: IQueue },
): void {
  const eachOne = {
    threshold: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
  };
  const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };
  add(
    'PaidOrdersErrors',
    {
      alarmName: name('paid-orders-errors'),
      alarmDescription:
        'The issuing consumer failed (unhandled error, timeout or failed start): its batch of paid orders is retried, split in halves.',
      metric: issuing.consumer.metricErrors(fiveMinutes),
      ...eachOne,
    },
    'paid-orders-errors',
  );
  add(
    'PaidOrdersGivenUp',
    {
      alarmName: name('paid-orders-given-up'),
      alarmDescription:
        "The issuing consumer's mapping gave up on paid orders (10 failed retries, or an hour old): they stay pending with their payment until the sweep of stuck orders issues them.",
      metric: issuing.givenUp.metricApproximateNumberOfMessagesVisible(fiveMinutes),
      ...eachOne,
    },
    'paid-orders-given-up',
  );
}
