import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createAdministrator } from '#shared/identity/data/administrators';
import { pingWebhookFor } from '#shared/webhooks/use-cases/delivery-routes';
import { createWebhookFor } from '#shared/webhooks/use-cases/subscriptions';
import { percentile } from '../bench/stats.ts';

/**
 * Receivers on 127.0.0.1 subscribed to an event's check-ins, for the gate rush with webhooks
 * active (the gate pays nothing): each counts what it gets and times it from the
 * change's commit (the message's `timestamp`) to its arrival. Beside them, `hanging` receivers
 * that accept every connection and never answer: the healthy ones' times show whether
 * a hanging receiver holds them up.
 */
export interface ReceiverFleet {
  /** Deliveries per receiver, by ticket id: more than one is a repeat (at least once). */
  received: Map<number, number>[];
  /** Commit-to-arrival times in ms, every delivery of every (healthy) receiver. */
  latenciesMs: number[];
  /** Requests the hanging receivers were sent (none answered). */
  hangingAsked: () => number;
  close(): Promise<void>;
}

export async function subscribeReceivers(count: number, eventId: number, hanging = 0): Promise<ReceiverFleet> {
  const received: Map<number, number>[] = [];
  const latenciesMs: number[] = [];
  const servers: Server[] = [];
  const held = new Set<Socket>();
  let hangingAsked = 0;
  const creator = await createAdministrator({
    login: `webhooks-${eventId}@gate-rush.local`,
    email: `webhooks-${eventId}@gate-rush.local`,
    name: 'Gate rush integrations',
    permissions: ['webhooks:manage', 'tickets:read'],
    vendorUser: 0,
  });
  const caller = { id: creator.id, eventScope: undefined, permissions: creator.permissions };
  const listening = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    servers.push(server);
    return (server.address() as AddressInfo).port;
  };
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
    const port = await listening(server);
    await createWebhookFor(caller, {
      url: `http://127.0.0.1:${port}/hooks/${n}`,
      events: ['ticket.checked_in'],
      eventIds: [eventId],
    });
  }
  const stuck: number[] = [];
  for (let n = 0; n < hanging; n++) {
    const server = createServer(() => {
      hangingAsked++; // read, never answered: the attempt runs to its time limit
    });
    server.on('connection', (socket) => {
      held.add(socket);
      socket.once('close', () => held.delete(socket));
    });
    const port = await listening(server);
    const { id } = await createWebhookFor(caller, {
      url: `http://127.0.0.1:${port}/hanging/${n}`,
      events: ['ticket.checked_in'],
      eventIds: [eventId],
    });
    stuck.push(id);
  }
  // Each hanging subscription already failing when the rush starts, as after its first unanswered message: a ping,
  // attempted at once, runs to a request's attempt limit (3 s). Its first ticket change would instead hold the consumer's
  // batch for the first attempts' window (1 s), once (functions/jobs/README.md "One receiver cannot slow the rest").
  await Promise.all(stuck.map((id) => pingWebhookFor(caller, id)));
  return {
    received,
    latenciesMs,
    hangingAsked: () => hangingAsked,
    close: async () => {
      for (const socket of held) socket.destroy();
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
    maxMs: sorted.at(-1) ?? 0,
    hangingAsked: fleet.hangingAsked(),
  };
}
