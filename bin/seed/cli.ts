/**
 * `npm run seed -- --tickets 100000 [--event N]`: seeds one event's tickets at scale
 * (bin/seed/scale.ts) into the stack `npm start` runs, as recorded in `.local/stack.json`
 * (its DynamoDB endpoint, region, credentials and table). `AWS_ENDPOINT_URL_DYNAMODB` and
 * `TABLE_NAME`, when set, take precedence (e.g. a deployed dev stage, with the usual AWS
 * credentials). A new event unless `--event`; what was seeded goes to `.local/seed.json`
 * (`{"eventId", "tickets", ...}`) for scripts that measure it. Progress on stderr.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';

const STACK = '.local/stack.json';
const OUT = '.local/seed.json';

const usage = 'Usage: npm run seed -- --tickets <count> [--event <id>]';
const { values } = parseArgs({
  options: { tickets: { type: 'string' }, event: { type: 'string' }, help: { type: 'boolean' } },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const tickets = Number(values.tickets ?? 1000);
const eventId = values.event === undefined ? undefined : Number(values.event);
if (!Number.isInteger(tickets) || tickets < 1 || (eventId !== undefined && !Number.isInteger(eventId))) {
  console.error(usage);
  process.exit(2);
}

// An endpoint or table in the environment means another target (a deployed stage, with its
// own credentials): then none of the local stack's settings apply, not even its dummy keys.
const explicit = !!(process.env.AWS_ENDPOINT_URL_DYNAMODB || process.env.TABLE_NAME);
const stack =
  !explicit && existsSync(STACK)
    ? (JSON.parse(readFileSync(STACK, 'utf8')) as { env?: Record<string, string>; tableName?: string })
    : {};
for (const [name, value] of Object.entries({
  ...stack.env,
  ...(stack.tableName ? { TABLE_NAME: stack.tableName } : {}),
}))
  process.env[name] ??= value;
if (!process.env.TABLE_NAME) {
  console.error(
    `No table: start the local stack (npm start writes ${STACK}) or set TABLE_NAME (and AWS_ENDPOINT_URL_DYNAMODB for a non-AWS endpoint).`,
  );
  process.exit(2);
}
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const target = `${process.env.AWS_ENDPOINT_URL_DYNAMODB ?? 'AWS DynamoDB'} (table ${process.env.TABLE_NAME})`;
console.error(
  `Seeding ${tickets.toLocaleString('en')} tickets into ${eventId === undefined ? 'a new event' : `event ${eventId}`} on ${target}`,
);

const started = performance.now();
/** `[#########.........]  45,000/100,000  45 %  2,350 tickets/s  ETA 23 s`, redrawn in place. */
function progress(written: number): void {
  const seconds = (performance.now() - started) / 1000;
  const rate = written / Math.max(seconds, 0.001);
  const width = 30;
  const filled = Math.round((written / tickets) * width);
  const eta = rate > 0 ? Math.round((tickets - written) / rate) : 0;
  process.stderr.write(
    `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${written.toLocaleString('en')}/${tickets.toLocaleString('en')} ` +
      `${Math.floor((written / tickets) * 100)} %  ${Math.round(rate).toLocaleString('en')} tickets/s  ETA ${eta} s   `,
  );
}

// After the environment is set: shared/ reads it when its modules load.
const { seedScale } = await import('./scale.ts');
try {
  const seeded = await seedScale({ tickets, eventId, onProgress: progress });
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(
    `\nSeeded ${tickets.toLocaleString('en')} tickets into event ${seeded.eventId} in ${seconds.toFixed(1)} s (${Math.round(tickets / seconds)} tickets/s).\n`,
  );
  mkdirSync(dirname(OUT), { recursive: true });
  const { customers, ...summary } = seeded;
  writeFileSync(
    OUT,
    `${JSON.stringify({ ...summary, customers: customers.length, sampleCustomers: customers.slice(0, 5) }, null, 2)}\n`,
  );
  console.error(`Wrote ${OUT}.`);
} catch (error) {
  console.error(`\nSeed failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
