import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import S3rver from 's3rver';
import {
  closeServer,
  javaExecutable,
  onFreePort,
  PortTaken,
  spawnChild,
  terminate,
  waitUntilReady,
} from './child-processes.ts';
import { startSecretsManager } from './secrets-manager.ts';
import { type StripeStandIn, startStripeStandIn } from './stripe/server.ts';

/**
 * The embedded stand-ins for DynamoDB, S3, SES, Cognito, Secrets Manager and Stripe (`payments`), on 127.0.0.1 and free ports,
 * shared by `npm start` and the integration tests. Where they differ from AWS is
 * listed in DESIGN.md ("The stand-ins").
 */
export interface LocalServices {
  endpoints: { dynamodb: string; s3: string; ses: string; cognito: string; secretsManager: string; payments: string };
  /** The Stripe stand-in: its keys (bin/keys/stripe.ts stores them as the stage's secret) and its deliveries. */
  payments: StripeStandIn;
  /** What the AWS SDK v3 clients (and the tests) need to reach the stand-ins. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface LocalServicesOptions {
  /** Receives progress lines and the children's output, prefixed with their name. */
  log?: (line: string) => void;
  /** The bucket to create; default env PHOTO_BUCKET, else `ticketing-photos-local`. */
  photoBucket?: string;
}

const require = createRequire(import.meta.url);
// CommonJS with `exports.default`: a static ESM import gets the exports object in Node
// but the function under vitest's interop, so require it the same way everywhere.
const { default: startSesServer } = require('aws-ses-v2-local') as typeof import('aws-ses-v2-local');

const REGION = 'us-east-1';
const S3RVER_KEY = 'S3RVER';

export async function startLocalServices(opts: LocalServicesOptions = {}): Promise<LocalServices> {
  const log = opts.log ?? (() => {});
  const photoBucket = opts.photoBucket ?? process.env.PHOTO_BUCKET ?? 'ticketing-photos-local';
  const java = javaExecutable();

  const children: ChildProcess[] = [];
  const scratch: string[] = [];
  const closers: Array<() => Promise<void>> = [];
  const tempDir = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), `ticketing-${name}-`));
    scratch.push(dir);
    return dir;
  };
  const run = (name: string, command: string, args: string[], env: NodeJS.ProcessEnv) => {
    const child = spawnChild(name, command, args, tempDir(name), env, log);
    children.push(child);
    return child;
  };

  // A last resort when the process ends without stop(): 'exit' listeners must be synchronous.
  const killNow = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  };
  // Ctrl-C: the children go too. When nobody else handles the signal, re-raise it so the
  // process ends as it would have without this listener (Linux children also carry a
  // parent-death signal, see spawnChild).
  const onSignal = (signal: NodeJS.Signals) => {
    for (const child of children) child.kill('SIGTERM');
    if (process.listenerCount(signal) === 1) {
      unhook();
      process.kill(process.pid, signal);
    }
  };
  const unhook = () => {
    process.off('exit', killNow);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('exit', killNow);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await Promise.allSettled([...children.map(terminate), ...closers.map((close) => close())]);
      killNow();
      unhook();
    })());

  const startDynamoDb = () =>
    onFreePort(async (port) => {
      const emulator = join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
      const child = run(
        'dynamodb',
        java,
        [
          `-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`,
          '-jar',
          join(emulator, 'DynamoDBLocal.jar'),
          // -sharedDb: one database whatever the access key and region of the caller.
          '-inMemory',
          '-sharedDb',
          '-disableTelemetry',
          '-port',
          String(port),
        ],
        process.env,
      );
      const endpoint = `http://127.0.0.1:${port}`;
      const client = new DynamoDBClient({
        endpoint,
        region: REGION,
        credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
        maxAttempts: 1,
        requestHandler: { requestTimeout: 2_000 },
      });
      try {
        await waitUntilReady('DynamoDB Local', child, async () => {
          await client.send(new ListTablesCommand({}));
        });
      } catch (error) {
        if (error instanceof PortTaken) await terminate(child);
        throw error;
      } finally {
        client.destroy();
      }
      return endpoint;
    });

  const startCognito = () =>
    onFreePort(async (port) => {
      const bin = join(dirname(require.resolve('cognito-local/package.json')), 'lib/bin/start.js');
      // cognito-local keeps its pools in `.cognito/` under its working directory.
      const child = run('cognito', process.execPath, [bin], { ...process.env, HOST: '127.0.0.1', PORT: String(port) });
      const endpoint = `http://127.0.0.1:${port}`;
      try {
        await waitUntilReady('cognito-local', child, async () => {
          const response = await fetch(`${endpoint}/health`);
          if (!response.ok) throw new Error(`health ${response.status}`);
        });
      } catch (error) {
        if (error instanceof PortTaken) await terminate(child);
        throw error;
      }
      return endpoint;
    });

  const startS3 = async () => {
    const s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: tempDir('s3'),
      configureBuckets: [{ name: photoBucket }],
    });
    const { port } = await s3.run();
    closers.push(async () => {
      s3.httpServer?.closeAllConnections();
      await s3.close();
    });
    return `http://127.0.0.1:${port}`;
  };

  const startSes = async () => {
    const server = await startSesServer({ host: '127.0.0.1', port: 0 });
    closers.push(() => closeServer(server));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  // In-process (bin/local/secrets-manager.ts): holds the signing key secret (`npm run keys`).
  const startSecrets = async () => {
    const standIn = await startSecretsManager();
    closers.push(() => standIn.close());
    return standIn.endpoint;
  };

  // In-process (bin/local/stripe/): the SDK reaches it through STRIPE_API_URL (shared/selling/services/payments.ts).
  let payments: StripeStandIn | undefined;
  const startPayments = async () => {
    payments = await startStripeStandIn();
    closers.push(() => payments!.close());
    return payments.baseUrl;
  };

  const started = await Promise.allSettled([
    startDynamoDb(),
    startS3(),
    startSes(),
    startCognito(),
    startSecrets(),
    startPayments(),
  ]);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed || !payments) {
    await stop();
    throw failed?.reason;
  }
  const [dynamodb, s3, ses, cognito, secretsManager] = started.map(
    (result) => (result as PromiseFulfilledResult<string>).value,
  ) as [string, string, string, string, string];
  log(
    `local services ready: dynamodb ${dynamodb}, s3 ${s3}, ses ${ses}, cognito ${cognito}, secrets manager ${secretsManager}, payments ${payments.baseUrl}`,
  );

  return {
    endpoints: { dynamodb, s3, ses, cognito, secretsManager, payments: payments.baseUrl },
    payments,
    env: {
      AWS_REGION: REGION,
      // Dummy credentials for every client. s3rver is the only stand-in that checks the key
      // (it knows just `S3RVER`; the others accept anything), so that one serves them all.
      AWS_ACCESS_KEY_ID: S3RVER_KEY,
      AWS_SECRET_ACCESS_KEY: S3RVER_KEY,
      // Service-specific endpoints the SDK v3 reads by itself: no client code differs locally.
      AWS_ENDPOINT_URL_DYNAMODB: dynamodb,
      AWS_ENDPOINT_URL_S3: s3,
      AWS_ENDPOINT_URL_SESV2: ses,
      AWS_ENDPOINT_URL_SES: ses,
      AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognito,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsManager,
      // Not an AWS client: the Stripe SDK's host, port and protocol (shared/selling/services/payments.ts); unset deployed.
      STRIPE_API_URL: payments.baseUrl,
      SES_STORE_URL: ses,
      COGNITO_LOCAL_URL: cognito,
      PHOTO_BUCKET: photoBucket,
      // s3rver serves objects publicly, path-style; in AWS the base URL is the CloudFront distribution.
      PHOTO_BASE_URL: `${s3}/${photoBucket}`,
      PHOTO_FORCE_PATH_STYLE: 'true',
      // One process serves every route against the stand-ins: requests queue for sockets, and the SDK's timers count that (shared/aws-clients.ts).
      DEPENDENCY_TIMEOUT_SCALE: '10',
      // The SDK's "upgrade to Node 22" notice, printed by every process (each test worker).
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    stop,
  };
}
