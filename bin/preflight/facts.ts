import { ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import { GetAccountSettingsCommand, InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetHostedZoneCommand, Route53Client } from '@aws-sdk/client-route-53';
import { DescribeSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetTopicAttributesCommand, SNSClient } from '@aws-sdk/client-sns';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { signingKeySecretName } from '#shared/auth/key-set';
import { routes } from '#shared/routes';
import { concurrencyOf } from '../../infra/concurrency.ts';
import { migrationRunnerName } from '../../infra/migrations.ts';
import type { StageSettings } from '../../infra/stages.ts';
import { CLOUDFRONT_REGION, type Facts, type Read, type RunnerStatus } from './checks.ts';

/** The bootstrap version parameter of the default qualifier (aws-cdk-lib DefaultStackSynthesizer). */
const BOOTSTRAP_VERSION_PARAMETER = '/cdk-bootstrap/hnb659fds/version';

/**
 * Read-only calls only: STS GetCallerIdentity, SSM GetParameter, Lambda GetAccountSettings, SESv2
 * GetEmailIdentity and GetAccount, Secrets Manager DescribeSecret, ACM DescribeCertificate (in
 * us-east-1), Route 53 GetHostedZone, SNS GetTopicAttributes; and the stage's migration runner
 * asked for its ledger (Lambda Invoke, `{"action":"ledger"}`: it only reads). A stage that pins its region is
 * read there, where its deploy goes.
 */
export async function readFacts(
  settings: StageSettings,
  options: { region?: string; expectedAccount?: string } = {},
): Promise<Facts> {
  const region = options.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  // A pinned stage is deployed to its own region, so its facts are read there.
  const config = settings.env ? { region: settings.env.region } : region ? { region } : {};
  const [sts, ssm, lambda, ses, secrets, acm, route53, sns] = [
    new STSClient(config),
    new SSMClient(config),
    new LambdaClient(config),
    new SESv2Client(config),
    new SecretsManagerClient(config),
    new ACMClient({ region: CLOUDFRONT_REGION }),
    new Route53Client(config),
    new SNSClient(config),
  ];
  try {
    const domain = settings.sesIdentity ?? settings.emailFrom.split('@')[1] ?? settings.emailFrom;
    const { certificateArn, hostedZone: zone } = settings;
    const [certificate, hostedZone, alarmTopics] = await Promise.all([
      certificateArn
        ? readOrMissing(async () => {
            const { Certificate } = await acm.send(new DescribeCertificateCommand({ CertificateArn: certificateArn }));
            return {
              status: Certificate?.Status ?? 'UNKNOWN',
              names: Certificate?.SubjectAlternativeNames ?? [Certificate?.DomainName ?? ''],
            };
          })
        : undefined,
      zone
        ? readOrMissing(async () => ({
            name: (await route53.send(new GetHostedZoneCommand({ Id: zone.id }))).HostedZone?.Name ?? '',
          }))
        : undefined,
      read(() =>
        Promise.all(
          settings.alarmSubscribers.topicArns.map(async (arn) => {
            const found = await readOrMissing(() => sns.send(new GetTopicAttributesCommand({ TopicArn: arn })));
            if ('error' in found) throw new Error(found.error);
            return { arn, exists: found.value !== null };
          }),
        ),
      ),
    ]);
    const [account, bootstrapVersion, lambdaConcurrency, sesAddress, sesDomain, sesAccount, signingKeys] =
      await Promise.all([
        read(async () => (await sts.send(new GetCallerIdentityCommand({}))).Account ?? ''),
        readOrMissing(async () =>
          Number((await ssm.send(new GetParameterCommand({ Name: BOOTSTRAP_VERSION_PARAMETER }))).Parameter?.Value),
        ),
        read(async () => {
          const { AccountLimit } = await lambda.send(new GetAccountSettingsCommand({}));
          return {
            limit: AccountLimit?.ConcurrentExecutions ?? 0,
            unreserved: AccountLimit?.UnreservedConcurrentExecutions ?? 0,
          };
        }),
        readOrMissing(async () =>
          identity(await ses.send(new GetEmailIdentityCommand({ EmailIdentity: settings.emailFrom }))),
        ),
        readOrMissing(async () => identity(await ses.send(new GetEmailIdentityCommand({ EmailIdentity: domain })))),
        read(async () => {
          const answer = await ses.send(new GetAccountCommand({}));
          return {
            productionAccess: answer.ProductionAccessEnabled === true,
            sendingEnabled: answer.SendingEnabled !== false,
          };
        }),
        readOrMissing(async () => {
          const secret = await secrets.send(
            new DescribeSecretCommand({ SecretId: signingKeySecretName(settings.name) }),
          );
          return {
            hasCurrentVersion: Object.values(secret.VersionIdsToStages ?? {}).some((stages) =>
              stages.includes('AWSCURRENT'),
            ),
          };
        }),
      ]);
    // The stage's migration runner answers its ledger and the table's GSIs (infra/migrations.ts); none before the first deploy.
    const migrations = await readOrMissing(async (): Promise<RunnerStatus> => {
      const answer = await lambda.send(
        new InvokeCommand({ FunctionName: migrationRunnerName(settings.name), Payload: '{"action":"ledger"}' }),
      );
      const text = new TextDecoder().decode(answer.Payload);
      if (answer.FunctionError) throw new Error(`${answer.FunctionError}: ${text.slice(0, 200)}`);
      return JSON.parse(text) as RunnerStatus;
    });
    const reservedByStage = routes.reduce((sum, row) => sum + (concurrencyOf(row, settings.name).reserved ?? 0), 0);
    return {
      settings,
      region: settings.env?.region ?? region,
      expectedAccount: options.expectedAccount,
      account,
      bootstrapVersion,
      lambdaConcurrency,
      reservedByStage,
      sesAddress,
      sesDomain,
      sesAccount,
      signingKeys,
      certificate,
      hostedZone,
      alarmTopics,
      migrations,
    };
  } finally {
    for (const client of [sts, ssm, lambda, ses, secrets, acm, route53, sns]) client.destroy();
  }
}

const identity = (answer: { VerifiedForSendingStatus?: boolean }) => ({
  verified: answer.VerifiedForSendingStatus === true,
});

/** A fact, or why it could not be read. */
async function read<T>(fetch: () => Promise<T>): Promise<Read<T>> {
  try {
    return { value: await fetch() };
  } catch (error) {
    // The first line only: SDK deserialization errors append a paragraph of advice.
    return {
      error: `${(error as { name?: string }).name ?? 'Error'}: ${String((error as Error).message).split('\n')[0]}`,
    };
  }
}

/** What AWS answers when the thing asked for does not exist (SSM, SESv2, Secrets Manager). */
const MISSING = new Set([
  'ParameterNotFound',
  'NotFoundException',
  'ResourceNotFoundException',
  'NoSuchHostedZone',
  'NotFound',
]);

/** A fact that may not exist: `null` then. */
function readOrMissing<T>(fetch: () => Promise<T>): Promise<Read<T | null>> {
  return read(async () => {
    try {
      return await fetch();
    } catch (error) {
      if (MISSING.has((error as { name?: string }).name ?? '')) return null;
      throw error;
    }
  });
}
