import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm start` as a developer runs it (bin/dev.ts in a child process), on free ports, for
 * tests that need the whole local topology (the front-end pages and their /api proxy).
 * Each run gets its own demo manifest (DEMO_MANIFEST), so two can run side by side.
 */
export interface DevStack {
  /** The admin page, `http://localhost:<port>` (also served on 127.0.0.1). */
  adminUrl: string;
  portalUrl: string;
  manifest: {
    baseUrl: string;
    mailStore: string;
    tickets: number[];
    admin: { login: string; password: string };
    scanner: { login: string; password: string };
    customer: { login: string; password: string };
  };
  /** Everything the process printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READY = /Ticketing API ready in/;
const START_TIMEOUT_MS = 180_000;

/**
 * Only what a shell gives a developer: the test workers' own environment (TEST_ENV,
 * the stand-ins' endpoints) must not leak into the child, which sets up its own.
 */
export function developerEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'JAVA_HOME', 'SystemRoot']) {
    if (process.env[name] !== undefined) env[name] = process.env[name]!;
  }
  return env;
}

/**
 * `ownStackFile` (the default): the stack's `.local/stack.json` goes to its own directory (STACK_FILE), so neither a
 * developer's running stack nor another test's loses its file; false writes it where `npm start` does, for a test
 * that runs the commands reading it.
 */
export async function startDevStack(
  authMethod: 'legacy' | 'idp',
  { ownStackFile = true }: { ownStackFile?: boolean } = {},
): Promise<DevStack> {
  const dir = await mkdtemp(join(tmpdir(), `ticketing-dev-${authMethod}-`));
  const manifestPath = join(dir, 'demo.json');
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/dev.ts'], {
    cwd: ROOT,
    env: {
      ...developerEnv(),
      SITE_AUTH_METHOD: authMethod,
      PORT: '0',
      ADMIN_PORT: '0',
      PORTAL_PORT: '0',
      DEMO_MANIFEST: manifestPath,
      ...(ownStackFile ? { STACK_FILE: join(dir, 'stack.json') } : {}),
      LOG_LEVEL: 'WARN',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a last-resort kill reaches its stand-ins (Java, cognito-local) too.
    detached: true,
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = once(child, 'exit');

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM'); // bin/dev.ts stops its stand-ins on SIGTERM
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 15_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`bin/dev.ts (${authMethod}) not ready after ${START_TIMEOUT_MS} ms:\n${output}`)),
        START_TIMEOUT_MS,
      );
      const check = () => {
        if (!READY.test(output)) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout.on('data', check);
      void exited.then(([code]) => {
        clearTimeout(timer);
        reject(new Error(`bin/dev.ts (${authMethod}) exited with ${code} before it was ready:\n${output}`));
      });
    });
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as DevStack['manifest'] & {
      adminUrl: string;
      portalUrl: string;
    };
    return { adminUrl: manifest.adminUrl, portalUrl: manifest.portalUrl, manifest, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
