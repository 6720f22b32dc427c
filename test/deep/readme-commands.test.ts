import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_FILE } from '../../bin/local/running-stack.ts';
import { developerEnv, ROOT, startDevStack, type DevStack } from '../support/dev-stack.ts';

/**
 * The commands the READMEs show, run as a person runs them: the stack started as `npm start` starts it, then each
 * command in a shell of its own (`bash -c`) in the repository, with a developer's environment (dev-stack.ts
 * `developerEnv`) and only what the README says to set. A non-zero exit fails, with the command's output.
 * Not here: what needs a deployed stage (`--stage <s>` of keys, preflight, webhooks:replay, migrations against AWS),
 * `npm run bench` itself (6-14 minutes; its `--help` is) and `npm start` (the stack this file starts). The load runs
 * run small.
 */
const SEED_FILE = join(ROOT, '.local/seed.json');
// A developer's own files, put back afterwards: this file's stack and seeds write where theirs do.
const KEPT = [join(ROOT, STACK_FILE), SEED_FILE].filter(existsSync);

let stack: DevStack;
beforeAll(async () => {
  for (const file of KEPT) renameSync(file, `${file}.kept-by-readme-commands`);
  stack = await startDevStack('legacy', { ownStackFile: false });
}, 240_000);
afterAll(async () => {
  await stack?.stop();
  rmSync(join(ROOT, STACK_FILE), { force: true });
  rmSync(SEED_FILE, { force: true });
  for (const file of KEPT) renameSync(`${file}.kept-by-readme-commands`, file);
});

/** Runs one command line in bash as a developer would; its output, or a failure naming the exit code and the output. */
async function run(command: string, env: Record<string, string> = {}): Promise<string> {
  const child = spawn('bash', ['-c', command], {
    cwd: ROOT,
    env: { ...developerEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const [code] = await once(child, 'exit');
  expect(code, `\`${command}\` exited with ${code}:\n${output}`).toBe(0);
  return output;
}

describe('the commands the READMEs show, against the stack `npm start` runs', () => {
  it('npm run seed, in each of its forms', async () => {
    await run('npm run seed -- --tickets 100');
    const { eventId } = JSON.parse(readFileSync(SEED_FILE, 'utf8')) as { eventId: number };
    await run(`npm run seed -- --tickets 50 --event ${eventId}`);
    expect(await run('npm run seed -- --events 30')).toMatch(/Seeded events \d+–\d+; the demo customer's orders: \d+/);
    expect(await run('npm run seed -- --help')).toMatch(/Usage: npm run seed/);
  }, 300_000);

  it('the maintenance commands, against the local table', async () => {
    const created = await run(
      `printf '%s' "$PW" | npx tsx bin/maintenance/create-administrator.ts --email ops@example.org --name "Olive Ops" --permissions all --password-stdin`,
      { PW: 'a long enough password' },
    );
    const id = /Administrator (\d+) created/.exec(created)?.[1];
    expect(id, created).toBeDefined();
    expect(await run(`npx tsx bin/maintenance/end-sessions.ts --administrator ${id}`)).toMatch(
      /Sessions of administrator/,
    );
    await run('npm run migrations -- --stage local');
  }, 120_000);

  it('npm run bench -- --help', async () => {
    expect(await run('npm run bench -- --help')).toMatch(/Usage: npm run bench/);
  }, 60_000);

  it('npm run load:gate, briefly (its own stand-ins)', async () => {
    await run('npm run load:gate -- --seconds 3 --scanners 2 --rescanners 1 --tickets 60 --webhooks 1');
  }, 300_000);

  // The stack's own lapse job (every 5 s) returns the walked-away holds after the event's one minute.
  it('npm run load:onsale, briefly (against the stack)', async () => {
    expect(
      await run('npm run load:onsale -- --buyers 24 --tickets 12 --seconds 2 --networks 2 --max-minutes 4'),
    ).toMatch(/On-sale rush, event \d+: 24 buyers for 12 tickets/);
  }, 300_000);
});
