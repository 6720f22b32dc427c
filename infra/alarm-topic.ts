import { Aws, Validations } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { alarmName } from './alarm-names.ts';
import type { StageSettings } from './stages.ts';

/**
 * The SNS topic every alarm of the stage notifies (`ticketing-<stage>-alarms`), published to
 * by CloudWatch only, and subscribed by the addresses of the stage file's `alarms.emails`
 * (each confirmed from the mail AWS sends). The existing topics of `alarms.topicArns` are
 * notified by the alarms themselves (infra/operations.ts): SNS cannot subscribe a topic.
 */
export function alarmTopic(scope: Construct, id: string, settings: StageSettings): Topic {
  const topic = new Topic(scope, id, {
    topicName: alarmName(settings.name, 'alarms'),
    displayName: `Ticketing ${settings.name} alarms`,
    enforceSSL: true,
  });
  Validations.of(topic).acknowledge({
    id: 'AwsSolutions-SNS2',
    reason:
      'Alarm notifications carry alarm names and metric values, no request data; CloudWatch publishes to an encrypted topic only through a customer managed KMS key ($1/month per stage).',
  });
  // enforceSSL replaces the topic's default policy (which let the account's services
  // publish) with one of our own: CloudWatch, a service principal, needs its own Allow.
  topic.addToResourcePolicy(
    new PolicyStatement({
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: {
        StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
        ArnLike: {
          'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:${alarmName(settings.name, '*')}`,
        },
      },
    }),
  );
  for (const email of settings.alarmSubscribers.emails) topic.addSubscription(new EmailSubscription(email));
  return topic;
}
