import { statSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import type { RouteRow } from '#shared/routes';
import { ROOT } from './settings.ts';
import { deployedEntry } from '../../infra/deployed-entry.ts';
import { FUNCTION_BUNDLE } from '../../infra/function-bundle.ts';

export interface Bundle {
  /** The `.mjs` file; `.mjs` so Node loads it as ESM from a temp dir without a package.json. */
  file: string;
  bytes: number;
  /** Output bytes per npm package (`(project)` for our own code), to explain a size. */
  packages: Record<string, number>;
}

/**
 * The production bundling (infra/function-bundle.ts), without the source map: it would not count towards the code
 * Lambda loads.
 */
const PRODUCTION: BuildOptions = { ...FUNCTION_BUNDLE, sourcemap: false, logLevel: 'error', absWorkingDir: ROOT };

/** A service beyond the table a route's row may use (shared/routes.ts `uses`): its floor sends one command of it. */
export type FloorService = 's3' | 'sesv2' | 'cognito' | 'secrets';

/** Secrets Manager for every row: each function reads the origin-verify secret (shared/http/origin-verify.ts), the issuers their signing key too. */
export const floorServicesOf = (row: RouteRow): FloorService[] => [
  ...(row.uses.photos ? ['s3' as const] : []),
  ...(row.uses.email ? ['sesv2' as const] : []),
  ...(row.uses.identityProvider || row.uses.customerIdentity ? ['cognito' as const] : []),
  'secrets',
];

/** Each service's client and one command, as a floor sends it (imports, module-scope client, handler line). */
const SERVICE_CODE: Record<FloorService, [string, string, string]> = {
  s3: [
    `import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';`,
    'const s3 = new S3Client({});',
    `await s3.send(new PutObjectCommand({ Bucket: 'b', Key: input.id, Body: 'x' }));`,
  ],
  sesv2: [
    `import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';`,
    'const ses = new SESv2Client({});',
    `await ses.send(new SendEmailCommand({ FromEmailAddress: 'a@b.c', Destination: { ToAddresses: ['d@e.f'] }, Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 't' } } } } }));`,
  ],
  cognito: [
    `import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';`,
    'const cognito = new CognitoIdentityProviderClient({});',
    `await cognito.send(new InitiateAuthCommand({ ClientId: 'c', AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: input.id } }));`,
  ],
  secrets: [
    `import { SecretsManagerClient, GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';`,
    'const secrets = new SecretsManagerClient({});',
    `await secrets.send(new GetSecretValueCommand({ SecretId: 's' }));`,
  ],
};

/**
 * A route's floor: what the fixed stack makes every function load, and nothing
 * else. A DocumentClient and one GetCommand, `@middy/core`, one zod schema parse (zod/mini
 * with its English messages, the project's one way to write schemas) and one jose
 * `jwtVerify` against the imported public keys; plus one command of each other service
 * the route's row uses. A route's bundle and init time are judged against its floor.
 */
export function floorSource(services: readonly FloorService[]): string {
  const code = services.map((service) => SERVICE_CODE[service]);
  return `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import { createLocalJWKSet, jwtVerify } from 'jose';
import * as z from 'zod/mini';
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';
${code.map(([imports]) => imports).join('\n')}
config(en());
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const keys = createLocalJWKSet(JSON.parse(process.env.JWT_PUBLIC_KEYS ?? '{"keys":[]}'));
const Input = z.object({ id: z.string().check(z.minLength(1)) });
${code.map(([, client]) => client).join('\n')}
export const handler = middy(async (event: { headers?: Record<string, string>; pathParameters?: Record<string, string> }) => {
  await jwtVerify(String(event.headers?.authorization).slice(7), keys);
  const input = Input.parse(event.pathParameters);
  const { Item } = await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: input.id, SK: 'X' } }));
  ${code.map(([, , command]) => command).join('\n  ')}
  return { statusCode: Item ? 200 : 404, body: JSON.stringify(Item ?? null) };
});
`;
}

/** The floors' names: `floor`, or `floor+s3+sesv2`... */
export const floorName = (services: readonly FloorService[]) => ['floor', ...services].join('+');

async function bundleOne(options: BuildOptions, outfile: string): Promise<Bundle> {
  const { metafile } = await build({ ...PRODUCTION, ...options, outfile, metafile: true });
  const packages: Record<string, number> = {};
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? '(project)';
      packages[name] = (packages[name] ?? 0) + bytesInOutput;
    }
  }
  return { file: outfile, bytes: statSync(outfile).size, packages };
}

export interface Bundles {
  /** By floor name. */
  floors: Map<string, Bundle>;
  /** By handler. */
  routes: Map<string, Bundle>;
  /** Each handler's floor name. */
  floorOf: Map<string, string>;
}

const CLIENT_PACKAGE: Record<FloorService, string> = {
  s3: '@aws-sdk/client-s3',
  sesv2: '@aws-sdk/client-sesv2',
  cognito: '@aws-sdk/client-cognito-identity-provider',
  secrets: '@aws-sdk/client-secrets-manager',
};

/**
 * Bundles every route's handler, then every floor they stand on, into `dir` (esbuild is
 * fast). A route's floor has the services its row declares and its bundle calls (a sign-in
 * row that only builds a hosted UI URL declares Cognito but carries no client);
 * test/infra/route-bundles.test.ts fails a bundle with a client its row does not declare.
 */
export async function bundleAll(rows: readonly RouteRow[], dir: string): Promise<Bundles> {
  const routes = new Map(
    await Promise.all(
      rows.map(
        async (row) =>
          [
            row.handler,
            await bundleOne(
              { entryPoints: [deployedEntry(join(ROOT, 'functions', `${row.handler}.ts`))] },
              join(dir, `${row.handler.replaceAll('/', '--')}.mjs`),
            ),
          ] as const,
      ),
    ),
  );
  const servicesOf = (row: RouteRow) =>
    floorServicesOf(row).filter((service) => routes.get(row.handler)!.packages[CLIENT_PACKAGE[service]]);
  const floorOf = new Map(rows.map((row) => [row.handler, floorName(servicesOf(row))]));
  const services = new Map(rows.map((row) => [floorName(servicesOf(row)), servicesOf(row)]));
  const floors = await Promise.all(
    [...services].map(async ([name, used]) => {
      const stdin = { contents: floorSource(used), loader: 'ts' as const, resolveDir: ROOT, sourcefile: `${name}.ts` };
      return [name, await bundleOne({ stdin }, join(dir, `${name}.mjs`))] as const;
    }),
  );
  return { floors: new Map(floors), routes, floorOf };
}
