import { ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import { DescribeLimitsCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  GetAccountSettingsCommand,
  GetFunctionConcurrencyCommand,
  GetFunctionConfigurationCommand,
  LambdaClient,
  paginateListFunctions,
} from '@aws-sdk/client-lambda';
import { GetHostedZoneCommand, Route53Client } from '@aws-sdk/client-route-53';
import { DescribeSecretCommand, ListSecretsCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetTopicAttributesCommand, SNSClient } from '@aws-sdk/client-sns';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { GetWebACLCommand, WAFV2Client } from '@aws-sdk/client-wafv2';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ORIGIN_VERIFY_HEADER } from '#shared/http/origin-verify-header';
import { keyCondition } from '#shared/data/key-conditions';
import { keys } from '#shared/data/keys';
import { signingKeySecretName } from '#shared/auth/key-set';
import { routes } from '#shared/routes';
import { stageReservations } from '../../infra/concurrency.ts';
import { migrationRunnerName } from '../../infra/migrations.ts';
import type { StageSettings } from '../../infra/stages.ts';
import { CLOUDFRONT_REGION, type Facts, type Read, type RunnerStatus } from './findings.ts';

/**
 * Read-only calls only, no Invoke: STS GetCallerIdentity, Lambda
 * GetAccountSettings, ListFunctions, GetFunctionConcurrency (the stage's own) and
 * GetFunctionConfiguration (its migration runner: the table's name), DynamoDB DescribeLimits, DescribeTable and
 * Query (the ledger's one partition), SESv2 GetEmailIdentity and GetAccount, Secrets Manager
 * DescribeSecret and ListSecrets, ACM DescribeCertificate and WAFv2 GetWebACL (in us-east-1),
 * Route 53 GetHostedZone, SNS GetTopicAttributes. A stage that pins its region is read there,
 * where its deploy goes.
 */
export async function readFacts(
  settings: StageSettings,
  options: { region?: string; expectedAccount?: string } = {},
): Promise<Facts> {
  const region = options.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  // A pinned stage is deployed to its own region, so its facts are read there.
  const config = settings.env ? { region: settings.env.region } : region ? { region } : {};
  const dynamodb = new DynamoDBClient(config);
  const waf = new WAFV2Client({ region: CLOUDFRONT_REGION });
  const [sts, lambda, ses, secrets, acm, route53, sns] = [
    new STSClient(config),
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
    const [account, lambdaConcurrency, sesAddress, sesDomain, sesAccount, signingKeys] = await Promise.all([
      read(async () => (await sts.send(new GetCallerIdentityCommand({}))).Account ?? ''),
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
        const secret = await secrets.send(new DescribeSecretCommand({ SecretId: signingKeySecretName(settings.name) }));
        return {
          hasCurrentVersion: Object.values(secret.VersionIdsToStages ?? {}).some((stages) =>
            stages.includes('AWSCURRENT'),
          ),
          versions: Object.keys(secret.VersionIdsToStages ?? {}),
        };
      }),
    ]);
    const originVerify = settings.originVerifyVersion
      ? await readOrMissing(async () => {
          // The stack's own secret, unnamed: found by its description (infra/origin-verify.ts).
          const { SecretList = [] } = await secrets.send(
            new ListSecretsCommand({
              Filters: [
                { Key: 'description', Values: [`ticketing-${settings.name}: value of the ${ORIGIN_VERIFY_HEADER}`] },
              ],
            }),
          );
          const [secret] = SecretList;
          return secret ? { versions: Object.keys(secret.SecretVersionsToStages ?? {}) } : null;
        })
      : undefined;
    const webAcl = settings.webAclArn ? await readWebAcl(waf, settings.webAclArn) : undefined;
    const reservedNow = read(() => stageReservedNow(lambda, settings.name));
    // The stage's table, named in its migration runner's configuration (none before the first deploy): its GSIs and ledger.
    const migrations = await readOrMissing(async (): Promise<RunnerStatus> => {
      const runner = await lambda.send(
        new GetFunctionConfigurationCommand({ FunctionName: migrationRunnerName(settings.name) }),
      );
      const TableName = runner.Environment?.Variables?.TABLE_NAME;
      if (!TableName) throw new Error(`${migrationRunnerName(settings.name)} names no TABLE_NAME`);
      return readLedger(dynamodb, TableName);
    });
    const reservedByStage = stageReservations(routes, settings);
    const dynamoLimits = settings.onSale
      ? await read(async () => {
          const limits = await dynamodb.send(new DescribeLimitsCommand({}));
          return {
            tableMaxReadUnits: limits.TableMaxReadCapacityUnits ?? 0,
            tableMaxWriteUnits: limits.TableMaxWriteCapacityUnits ?? 0,
          };
        })
      : undefined;
    return {
      settings,
      region: settings.env?.region ?? region,
      expectedAccount: options.expectedAccount,
      account,
      lambdaConcurrency,
      reservedByStage,
      dynamoLimits,
      reservedNow: await reservedNow,
      originVerify,
      webAcl,
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
    for (const client of [sts, lambda, ses, secrets, acm, route53, sns, dynamodb, waf]) client.destroy();
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

/** What AWS answers when the thing asked for does not exist (SESv2, Secrets Manager...). */
const MISSING = new Set([
  'WAFNonexistentItemException',
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

/** The ledger (one partition, one bounded Query) and the table's GSIs, read from the table itself. */
async function readLedger(dynamodb: DynamoDBClient, TableName: string): Promise<RunnerStatus> {
  const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName }));
  const documents = DynamoDBDocumentClient.from(dynamodb);
  const { Items = [] } = await documents.send(
    new QueryCommand({ TableName, ...keyCondition(keys.migrationLedger), Limit: 1000, ConsistentRead: true }),
  );
  return {
    tableIndexes: (Table?.GlobalSecondaryIndexes ?? [])
      .map((index) => index.IndexName ?? '')
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true })),
    ledger: Items.map((item) => ({
      id: Number(item.id),
      name: String(item.name),
      status: item.status === 'done' ? 'done' : 'running',
      startedAt: (item.startedAt as string | undefined) ?? null,
      finishedAt: (item.finishedAt as string | undefined) ?? null,
      runs: Number(item.runs ?? 0),
      progress: (item.progress as string | undefined) ?? null,
      heldUntil: (item.leaseUntil as string | undefined) ?? null,
      lastError: (item.lastError as string | undefined) ?? null,
    })),
  };
}

/**
 * What the stage's deployed functions reserve now: CloudFormation names them after their stack,
 * `Ticketing-<stage>-…` (nested stacks' names start with their parent's), so they are the
 * functions with that prefix.
 */
async function stageReservedNow(lambda: LambdaClient, stage: string): Promise<number> {
  const prefix = `Ticketing-${stage}-`;
  let reserved = 0;
  for await (const page of paginateListFunctions({ client: lambda }, {})) {
    for (const fn of page.Functions ?? []) {
      if (!fn.FunctionName?.startsWith(prefix)) continue;
      const { ReservedConcurrentExecutions } = await lambda.send(
        new GetFunctionConcurrencyCommand({ FunctionName: fn.FunctionName }),
      );
      reserved += ReservedConcurrentExecutions ?? 0;
    }
  }
  return reserved;
}

/** A CloudFront-scoped web ACL by its ARN (`arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>`). */
function readWebAcl(waf: WAFV2Client, arn: string) {
  const [, , name, id] = arn.split(':').slice(5).join(':').split('/');
  return readOrMissing(async () => {
    const { WebACL } = await waf.send(new GetWebACLCommand({ Name: name, Id: id, Scope: 'CLOUDFRONT' }));
    return { name: WebACL?.Name ?? name ?? '' };
  });
}
