import { randomUUID } from 'node:crypto';

import { createServer } from 'node:http';

import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '#shared/auth/passwords';

import { createAdministrator } from '#shared/data/administrators';

import { db, MAX_CONFLICT_RETRIES } from '#shared/data/client';

import { s3 } from '#shared/services/photos';

import { CLIENT_SETTINGS, clientOptions } from '#shared/aws-clients';

import type { Ticket } from '#shared/domain/ticket';
import { seedEvent, seedTickets } from '../../bin/seed/tickets.ts';

import { call, type CallResult } from '../support/api.ts';

import { clearFaults, failCalls, failures, slowCalls, watchCalls } from '../support/faults.ts';

import { jpegImage } from '../support/images.ts';

import { form } from '../support/multipart.ts';

import { checkIn, readStats, TICKETS } from '../support/tickets.ts';

import { adminToken } from '../support/tokens.ts';
import { newContainer } from '../support/container.ts';

/**
 * Faults injected at the SDK clients the handlers use (README "Faults and retries"):
 * DynamoDB throttled, in transaction conflicts or slow; S3 failing. Attempts are counted
 * by the injecting middleware, never timed.
 */
let token: string;
beforeAll(async () => {
  token = await adminToken();
});
afterEach(clearFaults);

const TRANSACT = ['TransactWriteItemsCommand'];
const READS = ['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand'];

async function newTicket(): Promise<{ ticket: Ticket; eventId: number }> {
  const event = await seedEvent();
  const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 1);
  return { ticket: ticket!, eventId: event.id };
}

function expectUnavailable(response: CallResult, dependency: string, retryAfter: number) {
  expect(response.status, response.raw).toBe(503);
  expect(response.headers['content-type']).toBe('application/problem+json');
  expect(response.headers['retry-after']).toBe(String(retryAfter));
  expect(response.body).toEqual({
    type: '/problems/unavailable',
    title: 'Service unavailable',
    status: 503,
    detail: `The ${dependency} is not answering for now; try again in ${retryAfter} seconds.`,
    instance: expect.any(String),
    dependency,
  });
  // No internals: no exception names, no table or bucket.
  expect(response.raw).not.toMatch(/Exception|SlowDown|ticketing-|injected/);
}

describe('DynamoDB', () => {
  it("a read route throttled on every attempt answers 503 + Retry-After after the SDK's attempts", async () => {
    const { ticket } = await newTicket();
    const fault = failCalls(db, { commands: READS, error: failures.dynamoThrottled });
    expectUnavailable(
      await call('GET', `${TICKETS}/${ticket.id}`, { token }),
      'database',
      CLIENT_SETTINGS.database.retryAfterSeconds,
    );
    expect(fault.attempts).toBe(CLIENT_SETTINGS.database.maxAttempts);
  });

  it("a throttle the SDK's retries outlast is invisible to the client", async () => {
    const { ticket } = await newTicket();
    const fault = failCalls(db, {
      commands: READS,
      times: CLIENT_SETTINGS.database.maxAttempts - 1,
      error: failures.dynamoThrottled,
    });
    const response = await call('GET', `${TICKETS}/${ticket.id}`, { token });
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(ticket.id);
    expect(fault.attempts).toBeGreaterThanOrEqual(CLIENT_SETTINGS.database.maxAttempts);
  });

  it('a connection reset on every attempt is a 503 too', async () => {
    const { ticket } = await newTicket();
    const fault = failCalls(db, { commands: READS, error: failures.socketHangUp });
    expectUnavailable(
      await call('GET', `${TICKETS}/${ticket.id}`, { token }),
      'database',
      CLIENT_SETTINGS.database.retryAfterSeconds,
    );
    expect(fault.attempts).toBe(CLIENT_SETTINGS.database.maxAttempts);
  });

  it('slower than the request timeout on every attempt: 503 (a 100 ms timeout, no long wait)', async () => {
    const { ticket } = await newTicket();
    const fault = await slowCalls(db, {
      timeoutMs: 100,
      restoreMs: clientOptions('database').requestHandler.requestTimeout,
    });
    expectUnavailable(
      await call('GET', `${TICKETS}/${ticket.id}`, { token }),
      'database',
      CLIENT_SETTINGS.database.retryAfterSeconds,
    );
    expect(fault.attempts).toBe(CLIENT_SETTINGS.database.maxAttempts);
  });

  it('an error that is not an outage stays a 500', async () => {
    const { ticket } = await newTicket();
    failCalls(db, { commands: READS, error: () => new Error('a bug') });
    const response = await call('GET', `${TICKETS}/${ticket.id}`, { token });
    expect(response.status).toBe(500);
    expect(response.headers['retry-after']).toBeUndefined();
  });
});

describe('check-in under transaction conflicts', () => {
  it('retries a transaction cancelled by conflicts: admitted once, counters exact', async () => {
    const { ticket, eventId } = await newTicket();
    const before = await readStats(token, eventId);
    const fault = failCalls(db, { commands: TRANSACT, times: 2, error: failures.transactionConflict });
    const admitted = await checkIn(token, ticket.id);
    expect(admitted.status, admitted.raw).toBe(200);
    expect(fault.attempts).toBe(3);
    expect(fault.inputs[2]).toEqual(fault.inputs[0]);
    const after = await readStats(token, eventId);
    expect(after.checkedInTickets).toBe(before.checkedInTickets + 1);
    expect(after.soldTickets).toBe(before.soldTickets);
  });

  it('two scanners racing through conflicts admit the ticket once', async () => {
    const { ticket, eventId } = await newTicket();
    const before = await readStats(token, eventId);
    failCalls(db, { commands: TRANSACT, times: 3, error: failures.transactionConflict });
    const answers = await Promise.all([checkIn(token, ticket.id), checkIn(token, ticket.id)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.reason).toBe('already_checked_in');
    expect((await readStats(token, eventId)).checkedInTickets).toBe(before.checkedInTickets + 1);
  });

  it('conflicts on every attempt: one round of retries, then 503 and nothing admitted (not retried again on a fresh read)', async () => {
    const { ticket, eventId } = await newTicket();
    const before = await readStats(token, eventId);
    const fault = failCalls(db, { commands: TRANSACT, error: failures.transactionConflict });
    expectUnavailable(await checkIn(token, ticket.id), 'database', CLIENT_SETTINGS.database.retryAfterSeconds);
    expect(fault.attempts).toBe(MAX_CONFLICT_RETRIES + 1);
    await clearFaults();
    expect((await readStats(token, eventId)).checkedInTickets).toBe(before.checkedInTickets);
  });

  it('a check-in whose commit fails on every attempt answers 503 and admits nothing', async () => {
    const { ticket, eventId } = await newTicket();
    const before = await readStats(token, eventId);
    failCalls(db, { commands: TRANSACT, error: failures.dynamoInternal });
    expectUnavailable(await checkIn(token, ticket.id), 'database', CLIENT_SETTINGS.database.retryAfterSeconds);
    await clearFaults();
    expect((await readStats(token, eventId)).checkedInTickets).toBe(before.checkedInTickets);
    expect((await checkIn(token, ticket.id)).status).toBe(200);
  });
});

describe('profile photo', () => {
  const upload = (id: number, bytes: Buffer) => {
    const { body, contentType } = form([{ name: 'file', filename: 'me.jpg', contentType: 'image/jpeg', data: bytes }]);
    return call('POST', `${TICKETS}/${id}/profile-photo`, { token, body, headers: { 'content-type': contentType } });
  };
  const photoOf = async (id: number) =>
    (await call('GET', `${TICKETS}/${id}`, { token })).body.data.profilePhoto as string | null;
  const storedKeys = async (id: number) => {
    const listing = await (await fetch(`${process.env.PHOTO_BASE_URL}?prefix=photos/tickets/${id}/`)).text();
    return [...listing.matchAll(/<Key>([^<]+)<\/Key>/g)].map((match) => match[1]);
  };
  const keyOf = (url: string) => url.slice(`${process.env.PHOTO_BASE_URL}/`.length);

  /** A ticket with a photo already, so a failed replacement can be seen to keep it. */
  async function ticketWithPhoto(): Promise<{ id: number; old: string }> {
    const { ticket } = await newTicket();
    const first = await upload(ticket.id, jpegImage(16, 16));
    expect(first.status, first.raw).toBe(200);
    return { id: ticket.id, old: first.body.data.profilePhoto };
  }

  async function expectOldPhotoKept(id: number, old: string) {
    expect(await photoOf(id)).toBe(old);
    expect(await storedKeys(id)).toEqual([keyOf(old)]);
    expect((await fetch(old)).status).toBe(200);
  }

  it('S3 failing on every attempt: 503, the record and the old photo unchanged, nothing stored', async () => {
    const { id, old } = await ticketWithPhoto();
    const fault = failCalls(s3, { commands: ['PutObjectCommand'], error: failures.s3SlowDown });
    expectUnavailable(
      await upload(id, jpegImage(24, 24)),
      'file storage',
      CLIENT_SETTINGS['file storage'].retryAfterSeconds,
    );
    expect(fault.attempts).toBe(CLIENT_SETTINGS['file storage'].maxAttempts);
    await clearFaults();
    await expectOldPhotoKept(id, old);
  });

  it('a connection reset on the upload is a 503 as well', async () => {
    const { id, old } = await ticketWithPhoto();
    failCalls(s3, { commands: ['PutObjectCommand'], error: failures.socketHangUp });
    expectUnavailable(
      await upload(id, jpegImage(24, 24)),
      'file storage',
      CLIENT_SETTINGS['file storage'].retryAfterSeconds,
    );
    await clearFaults();
    await expectOldPhotoKept(id, old);
  });

  it('S3 slower than the request timeout on every attempt: 503, the old photo kept (a 100 ms timeout)', async () => {
    const { id, old } = await ticketWithPhoto();
    const fault = await slowCalls(s3, {
      commands: ['PutObjectCommand'],
      timeoutMs: 100,
      restoreMs: clientOptions('file storage').requestHandler.requestTimeout,
    });
    expectUnavailable(
      await upload(id, jpegImage(24, 24)),
      'file storage',
      CLIENT_SETTINGS['file storage'].retryAfterSeconds,
    );
    expect(fault.attempts).toBe(CLIENT_SETTINGS['file storage'].maxAttempts);
    await clearFaults();
    await expectOldPhotoKept(id, old);
  });

  it('the record write failing after the upload: 503, the new object removed, the old photo still served', async () => {
    const { id, old } = await ticketWithPhoto();
    const puts = watchCalls(s3, ['PutObjectCommand']);
    const deletes = watchCalls(s3, ['DeleteObjectCommand']);
    failCalls(db, { commands: TRANSACT, error: failures.dynamoInternal });
    expectUnavailable(await upload(id, jpegImage(24, 24)), 'database', CLIENT_SETTINGS.database.retryAfterSeconds);
    expect(puts.attempts).toBe(1);
    const newKey = puts.inputs[0]!.Key as string;
    expect(deletes.inputs.map((input) => input.Key)).toEqual([newKey]);
    await clearFaults();
    await expectOldPhotoKept(id, old);
  });

  it('removing the photo with the record write failing: 503, photo kept and served', async () => {
    const { id, old } = await ticketWithPhoto();
    const deletes = watchCalls(s3, ['DeleteObjectCommand']);
    failCalls(db, { commands: TRANSACT, error: failures.dynamoInternal });
    expectUnavailable(
      await call('DELETE', `${TICKETS}/${id}/profile-photo`, { token }),
      'database',
      CLIENT_SETTINGS.database.retryAfterSeconds,
    );
    expect(deletes.attempts).toBe(0);
    await clearFaults();
    await expectOldPhotoKept(id, old);
  });

  it('removing the photo with S3 failing: the record is cleared (200) and the object is left behind, logged', async () => {
    const { id, old } = await ticketWithPhoto();
    const fault = failCalls(s3, { commands: ['DeleteObjectCommand'], error: failures.s3Internal });
    const response = await call('DELETE', `${TICKETS}/${id}/profile-photo`, { token });
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data.profilePhoto).toBeNull();
    expect(fault.attempts).toBe(CLIENT_SETTINGS['file storage'].maxAttempts);
    await clearFaults();
    expect(await photoOf(id)).toBeNull();
    expect(await storedKeys(id)).toEqual([keyOf(old)]);
  });
});

describe('Secrets Manager', () => {
  it('unreachable at the first token a container signs: the login answers 503 (secrets), and works once it answers again', async () => {
    const password = 'Secrets-outage-1';
    const login = `secrets-${randomUUID()}@test.local`;
    await createAdministrator({
      login,
      email: login,
      name: 'Outage',
      permissions: [],
      vendorUser: 0,
      passwordHash: await hashPassword(password),
    });
    const signIn = () => call('POST', '/api/v2/auth/legacy/login', { body: { login, password } });
    const saved = process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER;
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    try {
      process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = `http://127.0.0.1:${port}`; // nothing listens there now
      newContainer();
      expectUnavailable(await signIn(), 'secrets', CLIENT_SETTINGS.secrets.retryAfterSeconds);
    } finally {
      process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = saved;
      newContainer();
    }
    expect((await signIn()).status).toBe(200);
  });
});
