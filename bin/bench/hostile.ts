/**
 * `npm run bench -- --hostile`: what the worst inputs a client can send cost, against
 * `npm start` as a developer runs it (bin/dev.ts in a child process, demo data, the API on
 * 127.0.0.1): the customer event search with the most expensive `%` pattern the API accepts
 * beside a plain word, and PNG decompression bombs (interlaced and not, for a real ticket
 * and for an unknown one) beside a normal photo. Sequential requests, wall time per
 * request (p50 / p99). A measurement, not a test; writes `.local/bench-hostile.json`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import pngjs from 'pngjs';
import { ROOT } from './settings.ts';
import { percentile } from './stats.ts';

const RUNS = 30;

interface Manifest {
  baseUrl: string;
  adminUrl: string;
  admin: { login: string; password: string };
  customer: { login: string; password: string };
  tickets: number[];
}

async function startStack(): Promise<{ manifest: Manifest; stop: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'ticketing-hostile-'));
  const manifestPath = join(dir, 'demo.json');
  const env: Record<string, string> = {
    SITE_AUTH_METHOD: 'legacy',
    PORT: '0',
    ADMIN_PORT: '0',
    PORTAL_PORT: '0',
    DEMO_MANIFEST: manifestPath,
    LOG_LEVEL: 'ERROR',
  };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'JAVA_HOME'])
    if (process.env[name] !== undefined) env[name] = process.env[name]!;
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/dev.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Ticketing API ready in')) resolve();
    });
    void exited.then(([code]) => reject(new Error(`bin/dev.ts exited with ${code}:\n${output}`)));
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  return { manifest: JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest, stop };
}

const chunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
};

/** IHDR claims 1000×1000 RGBA (4 MB of pixel data); the IDAT inflates to 64 MB of zeros (~65 KB of file). */
function bomb(interlaced: boolean): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1000, 0);
  ihdr.writeUInt32BE(1000, 4);
  ihdr.set([8, 6, 0, 0, interlaced ? 1 : 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function photo(): Buffer {
  const png = new pngjs.PNG({ width: 640, height: 480 });
  for (let i = 0; i < png.data.length; i += 1) png.data[i] = (i * 7) % 251;
  return pngjs.PNG.sync.write(png);
}

function multipart(file: Buffer): { body: Buffer; type: string } {
  const boundary = `bench${Date.now()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

interface Row {
  name: string;
  status: number;
  p50: number;
  p99: number;
}

async function timed(name: string, send: () => Promise<Response>): Promise<Row> {
  const ms: number[] = [];
  let status = 0;
  for (let run = 0; run < RUNS + 3; run += 1) {
    const started = performance.now();
    const response = await send();
    await response.arrayBuffer();
    if (run >= 3) ms.push(performance.now() - started);
    status = response.status;
  }
  return { name, status, p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

export async function runHostile(): Promise<void> {
  console.error('Starting npm start (bin/dev.ts) with demo data...');
  const { manifest, stop } = await startStack();
  try {
    const base = manifest.baseUrl;
    const origin = manifest.adminUrl;
    const login = await fetch(`${base}/auth/legacy/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify(manifest.admin),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((value) => value.slice(0, value.indexOf(';')))
      .join('; ');
    const customer = (await (
      await fetch(`${base}/my-account`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(manifest.customer),
      })
    ).json()) as { data: { token: string } };
    const bearer = { authorization: `Bearer ${customer.data.token}` };
    const search = (pattern: string) => () =>
      fetch(`${base}/my-account/event?search=${encodeURIComponent(pattern)}`, { headers: bearer });
    const upload = (ticketId: number, file: Buffer) => () => {
      const { body, type } = multipart(file);
      return fetch(`${base}/tickets/${ticketId}/profile-photo`, {
        method: 'POST',
        headers: { cookie, origin, 'x-requested-with': 'fetch', 'content-type': type },
        body,
      });
    };
    const ticket = manifest.tickets[0]!;
    const [interlaced, plain, normal] = [bomb(true), bomb(false), photo()];
    const rows = [
      await timed('event search, a plain word', search('marathon')),
      await timed('event search, the worst pattern accepted (10 %)', search('%a%a%a%a%a%a%a%a%a%a!')),
      await timed('event search, 11 % (refused)', search('%a%a%a%a%a%a%a%a%a%a%a!')),
      await timed('profile photo, a 640×480 PNG', upload(ticket, normal)),
      await timed(
        `profile photo, interlaced PNG bomb (${(interlaced.length / 1024).toFixed(0)} KB → 64 MB)`,
        upload(ticket, interlaced),
      ),
      await timed(`profile photo, PNG bomb (${(plain.length / 1024).toFixed(0)} KB → 64 MB)`, upload(ticket, plain)),
      await timed('profile photo, interlaced bomb for an unknown ticket', upload(9_999_999_999, interlaced)),
    ];
    console.log(
      `\n| request | status | p50 / p99 ms |\n|---|---|---|\n${rows.map((row) => `| ${row.name} | ${row.status} | ${row.p50.toFixed(1)} / ${row.p99.toFixed(1)} |`).join('\n')}\n`,
    );
    mkdirSync(join(ROOT, '.local'), { recursive: true });
    writeFileSync(
      join(ROOT, '.local', 'bench-hostile.json'),
      `${JSON.stringify({ measuredAt: new Date().toISOString(), runs: RUNS, rows }, null, 2)}\n`,
    );
  } finally {
    await stop();
  }
}
