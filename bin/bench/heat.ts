/**
 * `npm run bench -- --heat`: what two events on sale at once write, scaled to the target. The local stack as
 * `npm start` runs it, in this process (the API server over the real middy handlers, the jobs a stage runs beside
 * them: bin/local/jobs.ts, the Stripe stand-in posting to the webhook route), two events sold through it (heat-sale.ts), every
 * write recorded off the SDK and priced by AWS's rules (heat-record.ts), then scaled by what was measured to the
 * target's holds and paid orders a second per event (heat-figures.ts) and printed (heat-report.ts). Writes
 * `.local/heat.json`. A measurement: it exits 0 whatever the figures.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServices } from '../local/services.ts';
import type { HeatTarget } from './heat-figures.ts';
import { BENCH_ENV, BENCH_SIGNING_KEY, BENCH_SIGNING_STAGE, ROOT } from './settings.ts';

export interface HeatOptions extends HeatTarget {
  buyers: number;
  /** Tickets per event (at least what the buyers take). */
  tickets: number;
  seconds: number;
}

const HEAT_TABLE = 'ticketing-heat';
const log = (line: string) => console.error(line);

export async function runHeat(options: HeatOptions): Promise<void> {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const services = await startLocalServices();
  const stops: (() => Promise<void>)[] = [];
  try {
    // Before anything from shared/ loads: config and the SDK read the environment then.
    Object.assign(process.env, BENCH_ENV, services.env, { TABLE_NAME: HEAT_TABLE, LOG_LEVEL: 'WARN' });
    const { initLocalSigningKeys } = await import('../keys/commands.ts');
    Object.assign(
      process.env,
      await initLocalSigningKeys(services, BENCH_SIGNING_STAGE, async () => ({ ...BENCH_SIGNING_KEY })),
    );
    const { createTable } = await import('../local/table.ts');
    await createTable(HEAT_TABLE);
    const { runMigrations } = await import('#shared/migrations/use-cases/runner');
    await runMigrations({ owner: 'heat-bench', stopAt: Number.POSITIVE_INFINITY });
    const { API_PREFIX } = await import('#shared/api-prefix');
    const { startApiServer } = await import('../local/server.ts');
    const { startLocalJobs } = await import('../local/jobs.ts');
    const server = await startApiServer({ port: 0 });
    stops.push(() => server.close());
    const jobs = await startLocalJobs({ tableName: HEAT_TABLE });
    stops.push(() => jobs.stop());
    const webhookUrl = `${server.url}${API_PREFIX}/payments/stripe/webhook`;
    services.payments.webhooks.configure({ url: webhookUrl });
    const target = {
      apiUrl: `${server.url}${API_PREFIX}`,
      payments: {
        baseUrl: services.payments.baseUrl,
        webhookUrl,
        publishableKey: services.payments.keys.publishableKey,
      },
    };

    const { prepareHeatSale, runHeatSale } = await import('./heat-sale.ts');
    const { recordWrites } = await import('./heat-record.ts');
    const { closeAgents } = await import('../load/onsale-http.ts');
    stops.push(async () => closeAgents());
    const sale = { buyers: options.buyers, tickets: options.tickets, seconds: options.seconds, concurrency: 16 };
    log(`Preparing two events and ${options.buyers} buyers each... (${elapsed()})`);
    const events = await prepareHeatSale(target, sale, log);
    const recorder = recordWrites(events.map((event) => event.eventId));
    log(`Selling both at once, every write recorded (read before and after)... (${elapsed()})`);
    recorder.start();
    const { sale: measured, stopped } = await runHeatSale(target, events, sale);
    // What the table's stream consumers still have to do for the sale is part of it.
    await jobs.drain();
    recorder.stop();
    log(`Sold (${elapsed()}): ${recorder.writes.length} item writes, ${recorder.refused} write commands refused.`);
    for (const stop of stopped)
      log(`  a buyer of event ${stop.event} stopped at ${stop.step}: ${stop.status} ${stop.reason ?? ''}`);

    const { heatFigures, limitChecks } = await import('./heat-figures.ts');
    const { costChecks, heatReport } = await import('./heat-report.ts');
    const targetRates = { holdsPerSecond: options.holdsPerSecond, ordersPerSecond: options.ordersPerSecond };
    const figures = heatFigures(recorder.writes, measured, targetRates);
    console.log(`\n${heatReport(figures, measured, targetRates)}`);
    if (stopped.length)
      console.log(
        `\nNOTE: ${stopped.length} buyers stopped before their order was issued (above): what they wrote is in the figures, divided among fewer holds or paid orders. Run again on a quieter machine.`,
      );
    mkdirSync(join(ROOT, '.local'), { recursive: true });
    const out = join(ROOT, '.local', 'heat.json');
    const json = {
      measuredAt: new Date().toISOString(),
      options,
      sale: measured,
      stopped,
      refusedWriteCommands: recorder.refused,
      checks: [...limitChecks(figures, measured), ...costChecks(figures)],
      ...figures,
      // The whole lists are long (every ticket's items): the hot end is what a reader looks for.
      items: figures.items.slice(0, 200),
      partitions: figures.partitions.slice(0, 200),
      // Every priced write as recorded, to check a figure against the writes behind it.
      writes: recorder.writes,
    };
    writeFileSync(
      out,
      `${JSON.stringify(json, (_, value) => (typeof value === 'number' ? Math.round(value * 100) / 100 : value), 2)}\n`,
    );
    log(`\nWrote ${out} (${elapsed()} in all).`);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await services.stop();
  }
}
