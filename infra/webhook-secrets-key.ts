import { Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { removalPolicyOf, type StageSettings } from './stages.ts';

/**
 * The key that seals the webhooks' signing secrets in the table (shared/webhooks/services/webhook-secret-box.ts):
 * JSON `{"current": "k1", "k1": <64 random characters>}`, the key being the SHA-256 of the
 * material. Rotation adds a key beside it (functions/jobs/README.md), so it is never generated again.
 */
export function webhookSecretsKey(scope: Construct, id: string, settings: StageSettings): Secret {
  const secret = new Secret(scope, id, {
    description: `ticketing-${settings.name}: the key sealing each webhook subscription's secrets in the table (functions/jobs/README.md)`,
    generateSecretString: {
      secretStringTemplate: JSON.stringify({ current: 'k1' }),
      generateStringKey: 'k1',
      passwordLength: 64,
      excludePunctuation: true,
    },
    removalPolicy: removalPolicyOf(settings),
  });
  Validations.of(secret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'Rotated by the runbook (functions/jobs/README.md: a new key beside the old, then migration 7 re-seals); an automatic rotation would replace the key the stored secrets need.',
  });
  return secret;
}

/** GetSecretValue on the key and its ARN in SEALING_KEY_SECRET: only functions that seal or open signing secrets. */
export function grantWebhookSecretsKey(
  fn: IFunction & { addEnvironment(key: string, value: string): unknown },
  secret: ISecret,
): void {
  fn.addToRolePolicy(
    new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }),
  );
  fn.addEnvironment('SEALING_KEY_SECRET', secret.secretArn);
}
