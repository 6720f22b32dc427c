import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdministrator } from '#shared/data/administrators';
import { createWebhookFor } from '#shared/use-cases/webhooks/subscriptions';
import { percentile } from '../bench/stats.ts';

/**
 * Receivers on 127.0.0.1 subscribed to an event's check-ins, for the gate rush with webhooks
 * active (issue 41: the gate pays nothing): each counts what it gets and times it from the
 * change's commit (the message's `timestamp`) to its arrival.
 */
export interface ReceiverFleet {
  /** Deliveries per receiver, by ticket id: more than one is a repeat (at least once). */
  received: Map<number, number>[];
  /** Commit-to-arrival times in ms, every delivery of every receiver. */
  latenciesMs: number[];
  close(): Promise<void>;
}

export async function subscribeReceivers(count: number, eventId: number): Promise<ReceiverFleet> {
  const received: Map<number, number>[] = [];
  const latenciesMs: number[] = [];
  const servers: Server[] = [];
  const creator = await createAdministrator({
    login: `webhooks-${eventId}@gate-rush.local`,
    email: `webhooks-${eventId}@gate-rush.local`,
    name: 'Gate rush integrations',
    permissions: ['webhooks:manage', 'tickets:read'],
    vendorUser: 0,
  });
  for (let n = 0; n < count; n++) {
    const counts = new Map<number, number>();
    received.push(counts);
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          timestamp: string;
          data: { ticketId: number };
        };
        latenciesMs.push(Date.now() - Date.parse(message.timestamp));
        counts.set(message.data.ticketId, (counts.get(message.data.ticketId) ?? 0) + 1);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    servers.push(server);
    await createWebhookFor(
      { id: creator.id, eventScope: undefined, permissions: creator.permissions },
      {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${n}`,
        events: ['ticket.checked_in'],
        eventIds: [eventId],
      },
    );
  }
  return {
    received,
    latenciesMs,
    close: async () => {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

/** Waits (at most `timeoutMs`) until every receiver has every admitted ticket; what is missing after that is reported. */
export async function awaitDeliveries(fleet: ReceiverFleet, admitted: readonly number[], timeoutMs: number) {
  const started = Date.now();
  const missing = () =>
    fleet.received.reduce((sum, counts) => sum + admitted.filter((id) => !counts.has(id)).length, 0);
  while (missing() && Date.now() - started < timeoutMs) await new Promise((resolve) => setTimeout(resolve, 200));
  const repeats = fleet.received.reduce(
    (sum, counts) => sum + [...counts.values()].reduce((extra, times) => extra + times - 1, 0),
    0,
  );
  const sorted = [...fleet.latenciesMs].sort((a, b) => a - b);
  return {
    expected: admitted.length * fleet.received.length,
    missing: missing(),
    repeats,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
}
