import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, expect } from 'vitest';
import { startWebhookWorkers as startWorkers, type WebhookWorkers } from '../../bin/local/webhook-workers.ts';
import { TABLE_NAME } from './env.ts';
import { seedEvent, seedTickets } from './factories/tickets.ts';
import { call } from './api.ts';
import { makeAdmin, staffToken } from './staff.ts';

export type { WebhookWorkers };

/** The webhooks' tests: a receiver on 127.0.0.1, and the workers that feed it (the stream's consumer, the dispatcher). */

export interface Received {
  headers: Record<string, string>;
  body: string;
  /** The body parsed, after its signature was checked against the secrets the test gave. */
  message: { type: string; timestamp: string; data: any };
}

/** What the receiver answers a request with: a status (with headers), or `hang` (never answers, so the attempt times out). */
export type Answer = number | 'hang' | { status: number; headers: Record<string, string> };

export interface Receiver {
  url: string;
  received: Received[];
  /** How the next requests are answered, in turn; then 204. */
  answers: Answer[];
  /** The secrets a message must verify with (any one of them, by `standardwebhooks`). */
  secrets: string[];
  /** Requests whose signature did not verify with any secret. */
  unverified: number;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: '',
    received: [],
    answers: [],
    secrets: [],
    unverified: 0,
    close: async () => {
      for (const response of hanging) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    const message = receiver.secrets
      .map((secret) => {
        try {
          return new Verifier(secret).verify(body, headers) as Received['message'];
        } catch {
          return undefined;
        }
      })
      .find(Boolean);
    if (message) receiver.received.push({ headers, body, message });
    else receiver.unverified++;
    const answer = receiver.answers.shift() ?? 204;
    if (answer === 'hang') {
      hanging.add(response);
      return;
    }
    if (typeof answer === 'object') response.writeHead(answer.status, answer.headers).end();
    else response.writeHead(answer, answer === 302 ? { location: `${receiver.url}/elsewhere` } : {}).end();
  });
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}

/** The workers on the file's own stream table (TABLE_NAME), the dispatcher every 100 ms. */
export const startWebhookWorkers = (options: { startingPosition?: 'LATEST' | 'TRIM_HORIZON' } = {}) =>
  startWorkers({ tableName: process.env.TABLE_NAME ?? TABLE_NAME, dispatchEveryMs: 100, ...options });

/**
 * A webhook file's workers and receivers: started before its tests, stopped and closed after them. Call once at the top
 * of the file, which has pointed TABLE_NAME at its own stream table (`useOwnStreamTable` in test/support/env.ts).
 */
export function webhookFixture() {
  const receivers: Receiver[] = [];
  const fixture = {
    /** Set once the file's `beforeAll` ran. */
    workers: undefined as unknown as WebhookWorkers,
    /** A new receiver, closed after the file's tests. */
    async receiver(): Promise<Receiver> {
      const started = await startReceiver();
      receivers.push(started);
      return started;
    },
  };
  beforeAll(async () => {
    fixture.workers = await startWebhookWorkers();
  }, 120_000);
  afterAll(async () => {
    await fixture.workers?.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });
  return fixture;
}

/** Polls `check` until it passes (a bounded number of times), draining the stream first. */
export async function eventually<T>(workers: WebhookWorkers, check: () => T | Promise<T>, tries = 100): Promise<T> {
  let last: unknown;
  for (let n = 0; n < tries; n++) {
    await workers.drain();
    try {
      return await check();
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw last;
}

export const WEBHOOKS = '/api/v2/webhooks';

/** Subscribes `receiver` for the admin holding `token`; the receiver then checks signatures with its secret. */
export async function subscribe(
  token: string,
  receiver: Receiver,
  body: { events: string[]; eventIds?: number[] | null; description?: string },
) {
  const response = await call('POST', WEBHOOKS, { token, body: { url: receiver.url, ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  receiver.secrets.push(response.body.data.secret);
  return response.body.data as { id: number; secret: string };
}

export async function deliveriesOf(token: string, webhookId: number, limit = 100) {
  const response = await call('GET', `${WEBHOOKS}/${webhookId}/deliveries?_limit=${limit}`, { token });
  expect(response.status).toBe(200);
  return response.body.data as {
    id: string;
    type: string;
    status: string;
    attempts: number;
    lastStatus: number | null;
    lastError: string | null;
    ticketId: number | null;
    messageId: string;
  }[];
}

/**
 * A new event with one ticket, watched by `receiver` through `subscriptions` subscriptions to `events` of that event,
 * made by a new administrator who may manage webhooks and read and edit tickets (their token edits the ticket).
 */
export async function watchedTicket(receiver: Receiver, events: string[], subscriptions = 1) {
  const token = await staffToken(
    await makeAdmin({ permissions: ['webhooks:manage', 'tickets:read', 'tickets:write'] }),
  );
  const event = await seedEvent();
  const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 1);
  const hooks: { id: number; secret: string }[] = [];
  for (let n = 0; n < subscriptions; n++)
    hooks.push(await subscribe(token, receiver, { events, eventIds: [event.id] }));
  return { token, event, ticket: ticket!, hooks };
}

/** `PATCH /tickets/{id}` of some fields, which must be accepted: the change the webhook then reports. */
export async function editTicket(token: string, ticketId: number, data: Record<string, unknown>) {
  const response = await call('PATCH', `/api/v2/tickets/${ticketId}`, { token, body: { data } });
  expect(response.status, response.raw).toBe(200);
  return response;
}
