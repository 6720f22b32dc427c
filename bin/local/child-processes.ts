import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants } from 'node:fs';
import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { delimiter, join } from 'node:path';

/**
 * The stand-ins' processes and ports (services.ts): a child started on a free port, again on
 * another when the port was taken meanwhile, waited for until it answers, stopped with a grace
 * period; never left behind by a crashed parent on Linux.
 */

const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 3_000;

export function javaExecutable(): string {
  const candidates = [
    ...(process.env.JAVA_HOME ? [join(process.env.JAVA_HOME, 'bin', 'java')] : []),
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, 'java')),
  ];
  const found = candidates.find(isExecutable);
  if (!found) {
    throw new Error(
      'DynamoDB Local needs Java 17 or newer, and no `java` was found on PATH or in JAVA_HOME. ' +
        'Install it (Debian/Ubuntu: `sudo apt-get install openjdk-17-jre-headless`, macOS: `brew install openjdk@17`) and try again.',
    );
  }
  return found;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// On Linux, `setpriv --pdeathsig KILL` makes the kernel kill the child when its parent
// dies, even by SIGKILL, so no orphaned java can survive a crashed test run.
const setpriv = process.platform === 'linux' ? ['/usr/bin/setpriv', '/bin/setpriv'].find(isExecutable) : undefined;

/** The last lines each child printed, for the error when it fails to start. */
const outputTail = new WeakMap<ChildProcess, string[]>();

export function spawnChild(
  name: string,
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): ChildProcess {
  const [file, argv] = setpriv ? [setpriv, ['--pdeathsig', 'KILL', '--', command, ...args]] : [command, args];
  const child = spawn(file, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail: string[] = [];
  outputTail.set(child, tail);
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split(/\r?\n/)) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > 20) tail.shift();
      log(`[${name}] ${line}`);
    }
  };
  // Always drain the pipes: a full pipe would block the child.
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.on('error', (error) => tail.push(String(error)));
  return child;
}

/**
 * Another process bound the port between `freePort` and the child's own bind (stand-ins of
 * parallel test workers start at once): the child says so, and may keep running unbound
 * while the probe reaches whatever holds the port. Seen once in CI as DynamoDB Local
 * "did not answer within 30 s" with a Jetty BindException in its output.
 */
export class PortTaken extends Error {}
const PORT_TAKEN = /Address already in use|EADDRINUSE|Failed to bind/;
const START_ATTEMPTS = 3;

/** Starts a stand-in on a free port, again on another one when that port was taken meanwhile. */
export async function onFreePort(start: (port: number) => Promise<string>): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= START_ATTEMPTS) throw error;
    }
  }
}

export async function waitUntilReady(name: string, child: ChildProcess, probe: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const output = outputTail.get(child) ?? [];
    if (output.some((line) => PORT_TAKEN.test(line)))
      throw new PortTaken(`${name}'s port was taken before it bound:\n${output.join('\n')}`);
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited during start-up:\n${output.join('\n')}`);
    }
    try {
      await probe();
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(
          `${name} did not answer within ${READY_TIMEOUT_MS / 1000} s (${String(error)}):\n${(outputTail.get(child) ?? []).join('\n')}`,
        );
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

export async function closeServer(server: Server): Promise<void> {
  const closed = once(server, 'close');
  server.close();
  server.closeAllConnections();
  await closed;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
