import { SecretValue, Validations } from 'aws-cdk-lib';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '#shared/http/origin-verify-header';
import { removalPolicyOf, type StageSettings } from './stages.ts';

/**
 * The origin-verify secret, JSON `{ current, previous }`: CloudFront adds `current` as a
 * header to `/api/*`, and the functions refuse requests with neither value (requests that
 * skipped the front ends). Only `current` at creation; a rotation writes both keys (README).
 */
export function originVerifySecret(scope: Construct, id: string, settings: StageSettings): Secret {
  const secret = new Secret(scope, id, {
    description: `ticketing-${settings.name}: value of the ${ORIGIN_VERIFY_HEADER} header CloudFront adds to /api/* (README: Deploying, rotation)`,
    generateSecretString: {
      secretStringTemplate: '{}',
      generateStringKey: 'current',
      passwordLength: 48,
      excludePunctuation: true,
    },
    removalPolicy: removalPolicyOf(settings),
  });
  Validations.of(secret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'Rotated by the README runbook (two deploys, current and previous accepted); an automatic rotation would need a deploy of the stack it cannot run.',
  });
  return secret;
}

/**
 * The header value CloudFront sends: a dynamic reference, re-read only when the template
 * changes, so it is pinned to the version the stage file names (`secretVersions.originVerify`,
 * README "Rotating the origin-verify value"): the commit of a rotation changes the template,
 * and every later deploy keeps it. The functions read the secret itself at run time (ORIGIN_VERIFY_SECRET,
 * shared/services/origin-verify-secret.ts): its values are in no function's configuration.
 */
export function originVerifyHeaderValue(secret: ISecret, settings: StageSettings): string {
  return SecretValue.secretsManager(secret.secretArn, {
    jsonField: 'current',
    versionId: settings.originVerifyVersion,
  }).unsafeUnwrap();
}
