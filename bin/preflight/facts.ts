import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { DescribeSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { signingKeySecretName } from '#shared/auth/key-set';
import { routes } from '#shared/routes';
import { concurrencyOf } from '../../infra/concurrency.ts';
import type { StageSettings } from '../../infra/stages.ts';
import type { Facts, Read } from './checks.ts';

/** The bootstrap version parameter of the default qualifier (aws-cdk-lib DefaultStackSynthesizer). */
const BOOTSTRAP_VERSION_PARAMETER = '/cdk-bootstrap/hnb659fds/version';

/** Read-only calls only: STS GetCallerIdentity, SSM GetParameter, Lambda GetAccountSettings, SESv2 GetEmailIdentity and GetAccount, Secrets Manager DescribeSecret. */
export async function readFacts(
  settings: StageSettings,
  options: { region?: string; expectedAccount?: string } = {},
): Promise<Facts> {
  const region = options.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  const config = region ? { region } : {};
  const [sts, ssm, lambda, ses, secrets] = [
    new STSClient(config),
    new SSMClient(config),
    new LambdaClient(config),
    new SESv2Client(config),
    new SecretsManagerClient(config),
  ];
  try {
    const domain = settings.emailFrom.split('@')[1] ?? settings.emailFrom;
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
    const reservedByStage = routes.reduce((sum, row) => sum + (concurrencyOf(row, settings.name).reserved ?? 0), 0);
    return {
      settings,
      region,
      expectedAccount: options.expectedAccount,
      account,
      bootstrapVersion,
      lambdaConcurrency,
      reservedByStage,
      sesAddress,
      sesDomain,
      sesAccount,
      signingKeys,
    };
  } finally {
    for (const client of [sts, ssm, lambda, ses, secrets]) client.destroy();
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
const MISSING = new Set(['ParameterNotFound', 'NotFoundException', 'ResourceNotFoundException']);

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
