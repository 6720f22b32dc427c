import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db, MAX_CONFLICT_RETRIES } from '#shared/data/client';
import { s3 } from '#shared/tickets/services/photos';
import { CLIENT_SETTINGS, clientOptions } from '#shared/aws-clients';
import { call } from '../support/api.ts';
import {
  clearFaults,
  closedPort,
  expectUnavailable,
  failCalls,
  failures,
  slowCalls,
  watchCalls,
} from '../support/faults.ts';
import { jpegImage } from '../support/images.ts';
import { form } from '../support/multipart.ts';
import { checkIn, oneTicket, readStats, TICKETS } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';
import { legacyLogin, makeAdmin } from '../support/staff.ts';
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

describe('DynamoDB', () => {
  it("a read route throttled on every attempt answers 503 + Retry-After after the SDK's attempts", async () => {
    const { ticket } = await oneTicket();
    const fault = failCalls(db, { commands: READS, error: failures.dynamoThrottled });
    expectUnavailable(await call('GET', `${TICKETS}/${ticket.id}`, { token }), 'database');
    expect(fault.attempts).toBe(CLIENT_SETTINGS.database.maxAttempts);
  });

  it("a throttle the SDK's retries outlast is invisible to the client", async () => {
    const { ticket } = await oneTicket();
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
    const { ticket } = await oneTicket();
    const fault = failCalls(db, { commands: READS, error: failures.socketHangUp });
    expectUnavailable(await call('GET', `${TICKETS}/${ticket.id}`, { token }), 'database');
    expect(fault.attempts).toBe(CLIENT_SETTINGS.database.maxAttempts);
  });

  it('slower than the request timeout on every attempt: 503 (a 100 ms timeout, no long wait)', async () => {
    const { ticket } = await oneTicket();
    const fault = await slowCalls(db, {
      timeoutMs: 100,
      restoreMs: clientOptions('database').requestHandler.requestTimeout,
    });
    expectUnavailable(await call('GET', `${TICKETS}/${ticket.id}`, { token }), 'database');
    expect(fault.attempts).toBe(CLIENT_SETTINGS.database.maxAttempts);
  });

  it('an error that is not an outage stays a 500', async () => {
    const { ticket } = await oneTicket();
    failCalls(db, { commands: READS, error: () => new Error('a bug') });
    const response = await call('GET', `${TICKETS}/${ticket.id}`, { token });
    expect(response.status).toBe(500);
    expect(response.headers['retry-after']).toBeUndefined();
  });
});

describe('check-in under transaction conflicts', () => {
  it('retries a transaction cancelled by conflicts: admitted once, counters exact', async () => {
    const { ticket, event } = await oneTicket();
    const before = await readStats(token, event.id);
    const fault = failCalls(db, { commands: TRANSACT, times: 2, error: failures.transactionConflict });
    const admitted = await checkIn(token, ticket.id);
    expect(admitted.status, admitted.raw).toBe(200);
    expect(fault.attempts).toBe(3);
    expect(fault.inputs[2]).toEqual(fault.inputs[0]);
    const after = await readStats(token, event.id);
    expect(after.checkedInTickets).toBe(before.checkedInTickets + 1);
    expect(after.soldTickets).toBe(before.soldTickets);
  });

  it('two scanners racing through conflicts admit the ticket once', async () => {
    const { ticket, event } = await oneTicket();
    const before = await readStats(token, event.id);
    failCalls(db, { commands: TRANSACT, times: 3, error: failures.transactionConflict });
    const answers = await Promise.all([checkIn(token, ticket.id), checkIn(token, ticket.id)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.reason).toBe('already_checked_in');
    expect((await readStats(token, event.id)).checkedInTickets).toBe(before.checkedInTickets + 1);
  });

  it('conflicts on every attempt: one round of retries, then 503 and nothing admitted (not retried again on a fresh read)', async () => {
    const { ticket, event } = await oneTicket();
    const before = await readStats(token, event.id);
    const fault = failCalls(db, { commands: TRANSACT, error: failures.transactionConflict });
    expectUnavailable(await checkIn(token, ticket.id), 'database');
    expect(fault.attempts).toBe(MAX_CONFLICT_RETRIES + 1);
    await clearFaults();
    expect((await readStats(token, event.id)).checkedInTickets).toBe(before.checkedInTickets);
  });

  it('a check-in whose commit fails on every attempt answers 503 and admits nothing', async () => {
    const { ticket, event } = await oneTicket();
    const before = await readStats(token, event.id);
    failCalls(db, { commands: TRANSACT, error: failures.dynamoInternal });
    expectUnavailable(await checkIn(token, ticket.id), 'database');
    await clearFaults();
    expect((await readStats(token, event.id)).checkedInTickets).toBe(before.checkedInTickets);
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
    const { ticket } = await oneTicket();
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
    expectUnavailable(await upload(id, jpegImage(24, 24)), 'file storage');
    expect(fault.attempts).toBe(CLIENT_SETTINGS['file storage'].maxAttempts);
    await clearFaults();
    await expectOldPhotoKept(id, old);
  });

  it('a connection reset on the upload is a 503 as well', async () => {
    const { id, old } = await ticketWithPhoto();
    failCalls(s3, { commands: ['PutObjectCommand'], error: failures.socketHangUp });
    expectUnavailable(await upload(id, jpegImage(24, 24)), 'file storage');
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
    expectUnavailable(await upload(id, jpegImage(24, 24)), 'file storage');
    expect(fault.attempts).toBe(CLIENT_SETTINGS['file storage'].maxAttempts);
    await clearFaults();
    await expectOldPhotoKept(id, old);
  });

  it('the record write failing after the upload: 503, the new object removed, the old photo still served', async () => {
    const { id, old } = await ticketWithPhoto();
    const puts = watchCalls(s3, ['PutObjectCommand']);
    const deletes = watchCalls(s3, ['DeleteObjectCommand']);
    failCalls(db, { commands: TRANSACT, error: failures.dynamoInternal });
    expectUnavailable(await upload(id, jpegImage(24, 24)), 'database');
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
    expectUnavailable(await call('DELETE', `${TICKETS}/${id}/profile-photo`, { token }), 'database');
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
  it('unreachable at the first token a container signs: the login answers 503 (secrets), and signs in once Secrets Manager answers again', async () => {
    const password = 'Secrets-outage-1';
    const { login } = await makeAdmin({ password });
    const signIn = () => legacyLogin(login, password);
    const saved = process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER;
    const port = await closedPort();
    try {
      process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = `http://127.0.0.1:${port}`; // nothing listens there now
      newContainer();
      expectUnavailable(await signIn(), 'secrets');
    } finally {
      process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = saved;
      newContainer();
    }
    expect((await signIn()).status).toBe(200);
  });
});
