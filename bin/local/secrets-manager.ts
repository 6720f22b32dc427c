import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A minimal in-memory Secrets Manager for `npm start`, the tests and the bench: it speaks
 * the real JSON 1.1 protocol (POST /, `X-Amz-Target: secretsmanager.<Operation>`), so the
 * unchanged SDK client talks to it (AWS_ENDPOINT_URL_SECRETS_MANAGER). Only what the
 * service and `npm run keys` call: CreateSecret, GetSecretValue, PutSecretValue,
 * DescribeSecret. Versions keep AWSCURRENT / AWSPREVIOUS like AWS; no signature checks,
 * no KMS, no rotation lambdas, no deletion.
 */
export interface SecretsManagerStandIn {
  endpoint: string;
  close(): Promise<void>;
}

interface Version {
  id: string;
  value: string;
  stages: Set<string>;
  created: number;
}

interface StoredSecret {
  arn: string;
  name: string;
  description?: string;
  created: number;
  versions: Version[];
}

class ServiceError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const REGION = 'us-east-1';
const ACCOUNT = '000000000000';

export async function startSecretsManager(): Promise<SecretsManagerStandIn> {
  const secrets = new Map<string, StoredSecret>();

  const find = (id: unknown): StoredSecret => {
    const secret =
      typeof id === 'string'
        ? (secrets.get(id) ?? [...secrets.values()].find((s) => s.arn === id || s.arn.startsWith(`${id}-`)))
        : undefined;
    if (!secret)
      throw new ServiceError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    return secret;
  };
  const addVersion = (secret: StoredSecret, value: unknown, token: unknown): Version => {
    if (typeof value !== 'string')
      throw new ServiceError('InvalidParameterException', 'This stand-in stores SecretString only.');
    const id = typeof token === 'string' && token ? token : randomUUID();
    const existing = secret.versions.find((version) => version.id === id);
    if (existing) return existing; // idempotent retry with the same ClientRequestToken
    for (const version of secret.versions) {
      version.stages.delete('AWSPREVIOUS');
      if (version.stages.delete('AWSCURRENT')) version.stages.add('AWSPREVIOUS');
    }
    const version = { id, value, stages: new Set(['AWSCURRENT']), created: Date.now() / 1000 };
    secret.versions.push(version);
    return version;
  };

  const operations: Record<string, (input: Record<string, unknown>) => unknown> = {
    CreateSecret(input) {
      const name = input.Name;
      if (typeof name !== 'string' || !name) throw new ServiceError('InvalidParameterException', 'Name is required.');
      if (secrets.has(name))
        throw new ServiceError(
          'ResourceExistsException',
          `The operation failed because the secret ${name} already exists.`,
        );
      const secret: StoredSecret = {
        arn: `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${name}-${randomUUID().slice(0, 6)}`,
        name,
        description: typeof input.Description === 'string' ? input.Description : undefined,
        created: Date.now() / 1000,
        versions: [],
      };
      const version = addVersion(secret, input.SecretString, input.ClientRequestToken);
      secrets.set(name, secret);
      return { ARN: secret.arn, Name: name, VersionId: version.id };
    },
    PutSecretValue(input) {
      const secret = find(input.SecretId);
      const version = addVersion(secret, input.SecretString, input.ClientRequestToken);
      return { ARN: secret.arn, Name: secret.name, VersionId: version.id, VersionStages: [...version.stages] };
    },
    GetSecretValue(input) {
      const secret = find(input.SecretId);
      const stage = typeof input.VersionStage === 'string' ? input.VersionStage : 'AWSCURRENT';
      const version =
        typeof input.VersionId === 'string'
          ? secret.versions.find((v) => v.id === input.VersionId)
          : secret.versions.find((v) => v.stages.has(stage));
      if (!version)
        throw new ServiceError('ResourceNotFoundException', "Secrets Manager can't find the specified secret value.");
      return {
        ARN: secret.arn,
        Name: secret.name,
        VersionId: version.id,
        SecretString: version.value,
        VersionStages: [...version.stages],
        CreatedDate: version.created,
      };
    },
    DescribeSecret(input) {
      const secret = find(input.SecretId);
      return {
        ARN: secret.arn,
        Name: secret.name,
        Description: secret.description,
        CreatedDate: secret.created,
        VersionIdsToStages: Object.fromEntries(
          secret.versions.filter((v) => v.stages.size > 0).map((v) => [v.id, [...v.stages]]),
        ),
      };
    },
  };

  const answer = (response: ServerResponse, status: number, body: unknown, errorType?: string) => {
    response.writeHead(status, {
      'content-type': 'application/x-amz-json-1.1',
      'x-amzn-requestid': randomUUID(),
      ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
    });
    response.end(JSON.stringify(body));
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const target = String(request.headers['x-amz-target'] ?? '');
    const operation = target.startsWith('secretsmanager.')
      ? operations[target.slice('secretsmanager.'.length)]
      : undefined;
    if (request.method !== 'POST' || !operation) {
      answer(
        response,
        400,
        { __type: 'UnknownOperationException', message: `Not supported by the stand-in: ${target || request.method}` },
        'UnknownOperationException',
      );
      return;
    }
    try {
      const input = chunks.length
        ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>)
        : {};
      answer(response, 200, operation(input));
    } catch (error) {
      const type = error instanceof ServiceError ? error.type : 'InternalServiceError';
      answer(
        response,
        error instanceof ServiceError ? 400 : 500,
        { __type: type, message: (error as Error).message },
        type,
      );
    }
  };

  const server = createServer((request, response) => void handle(request, response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}
