/**
 * `npm run seed -- --events N`: N published events, past and future (bin/seed/events.ts),
 * a few with tickets of the demo customer.
 * `npm run seed -- --tickets 100000 [--event N]`: seeds one event's tickets at scale
 * (bin/seed/scale.ts) into the stack `npm start` runs, as recorded in `.local/stack.json`
 * (its DynamoDB endpoint, region, credentials, table and the service's environment, which
 * `--events` needs: its orders run the checkout's use case). `AWS_ENDPOINT_URL_DYNAMODB` and
 * `TABLE_NAME`, when set, take precedence (e.g. a deployed dev stage, with the usual AWS
 * credentials). A new event unless `--event`; what was seeded goes to `.local/seed.json`
 * (`{"eventId", "tickets", ...}`) for scripts that measure it. Progress on stderr.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { useRunningStack } from '../local/running-stack.ts';

const OUT = '.local/seed.json';

const usage = 'Usage: npm run seed -- --tickets <count> [--event <id>] | --events <count>';
const { values } = parseArgs({
  options: {
    tickets: { type: 'string' },
    event: { type: 'string' },
    events: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (values.events !== undefined) {
  const count = Number(values.events);
  if (!Number.isInteger(count) || count < 1) {
    console.error(usage);
    process.exit(2);
  }
  const target = useRunningStack();
  console.error(`Seeding ${count.toLocaleString('en')} published events on ${target}`);
  const { seedPublishedEvents } = await import('./events.ts');
  const seeded = await seedPublishedEvents(count, (done) =>
    process.stderr.write(`\r${done.toLocaleString('en')} events`),
  );
  console.error(
    `\nSeeded events ${seeded.first}–${seeded.last}; the demo customer's orders: ${seeded.demoOrders.join(', ') || 'none (no demo customer)'}.`,
  );
  process.exit(0);
}
const tickets = Number(values.tickets ?? 1000);
const eventId = values.event === undefined ? undefined : Number(values.event);
if (!Number.isInteger(tickets) || tickets < 1 || (eventId !== undefined && !Number.isInteger(eventId))) {
  console.error(usage);
  process.exit(2);
}

const target = useRunningStack();
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
