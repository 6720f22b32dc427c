import { ComparisonOperator } from 'aws-cdk-lib/aws-cloudwatch';
import { METRIC } from '#shared/metric-names';
import { businessMetric } from './operations-metrics.ts';
import type { AddAlarm } from './service-alarms.ts';
import type { StageName } from './stages.ts';

/**
 * The payments' alarms: what Stripe reports after a payment that staff must act on (shared/README.md "Refunds"). A
 * dispute has a deadline (answered in Stripe's dashboard), a refund that failed left a buyer without their money, and
 * a payment that paid no order (shared/selling/use-cases/succeeded-payments.ts: refunded by the service, but another
 * intent, amount or currency than an order's, or no order at all) is worth a look, and so is a paid order's invoice
 * the every-minute job failed to number (shared/selling/use-cases/invoices-due.ts): each one pages, as it comes.
 */
export function paymentAlarms(
  add: AddAlarm,
  name: (suffix: string) => string,
  serviceName: string,
  stage: StageName,
): void {
  const eachOne = {
    threshold: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
  };
  add(
    'PaymentDisputed',
    {
      alarmName: name('payment-disputed'),
      alarmDescription:
        "A cardholder disputed an order's payment (Stripe's charge.dispute.created): it must be answered in Stripe's dashboard before the dispute's deadline.",
      metric: businessMetric(serviceName, stage, METRIC.paymentDisputed, { label: 'Payments disputed' }),
      ...eachOne,
    },
    'payment-disputed',
  );
  add(
    'RefundFailed',
    {
      alarmName: name('refund-failed'),
      alarmDescription:
        'A refund Stripe had accepted failed later (refund.failed, e.g. a closed card): the buyer did not get the money back.',
      metric: businessMetric(serviceName, stage, METRIC.refundFailed, { label: 'Refunds failed' }),
      ...eachOne,
    },
    'refund-failed',
  );
  add(
    'PaymentUnmatched',
    {
      alarmName: name('payment-unmatched'),
      alarmDescription:
        "A Stripe payment succeeded that paid no order (another PaymentIntent than the order's, another amount or currency, or no such order): the service refunded it in full, or recorded Stripe's refusal to.",
      metric: businessMetric(serviceName, stage, METRIC.paymentUnmatched, { label: 'Payments that paid no order' }),
      ...eachOne,
    },
    'payment-unmatched',
  );
  add(
    'InvoiceStillDue',
    {
      alarmName: name('invoice-still-due'),
      alarmDescription:
        "A paid order's invoice could not be numbered, and the every-minute job's retry of it failed again: the order has its tickets but no invoice yet (it stays due; the job retries each minute).",
      metric: businessMetric(serviceName, stage, METRIC.invoiceStillDue, { label: 'Invoices still due' }),
      ...eachOne,
    },
    'invoice-still-due',
  );
}
