import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { claimRequest, readFirstAnswer, releaseRequest } from '#shared/data/idempotent-requests';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { fingerprintOf } from '#shared/domain/idempotency';
import { Conflict } from '#shared/errors';
import { routes, wrapperTableActions } from '#shared/routes';
import { transferTicket } from '#shared/tickets/use-cases/transfer-ticket';
import { call } from '../support/api.ts';
import { countReads } from '../support/dynamo-reads.ts';
import { checkIn, oneTicket, readStats, soldOf, TICKETS } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

// README "Idempotent retries".
const ADMIN_ID = 515_151;
let token: string;

beforeAll(async () => {
  token = await adminToken(undefined, ADMIN_ID);
});

const transfer = (id: number, body: unknown, key?: string, as = token) =>
  call('POST', `${TICKETS}/${id}/transfer`, {
    token: as,
    body,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

describe('Idempotency-Key', () => {
  it('transfers once when a transfer is retried with the same key, and answers the first answer again', async () => {
    const { event, ga, vip, ticket } = await oneTicket();
    const key = randomUUID();
    const first = await transfer(ticket.id, { typeId: vip.id }, key);
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await transfer(ticket.id, { typeId: vip.id }, key);
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toBe('application/json');
    expect(retry.body).toEqual(first.body);
    // One replacement ticket, one move of `sold`.
    expect(await readTicketRecord(ticket.id)).toMatchObject({
      transferState: 'transferred',
      transferredTo: first.body.data.id,
    });
    expect(await soldOf(event.id)).toEqual(
      new Map([
        [ga.id, 0],
        [vip.id, 1],
      ]),
    );
  });

  it('costs what the README says: a key adds one conditional PutItem and one UpdateItem; a replay is one refused PutItem and one GetItem', async () => {
    const { vip, ticket } = await oneTicket();
    const other = await oneTicket();
    // The caller's session version is then cached (shared/identity/use-cases/session-check.ts), as for every later request.
    await call('GET', `${TICKETS}/${ticket.id}`, { token });
    const plain = await countReads(() => transfer(other.ticket.id, { typeId: other.vip.id }));
    const key = randomUUID();
    const keyed = await countReads(() => transfer(ticket.id, { typeId: vip.id }, key));
    expect([plain.result.status, keyed.result.status]).toEqual([200, 200]);
    const added = (name: string) => (keyed.reads.byCommand[name] ?? 0) - (plain.reads.byCommand[name] ?? 0);
    expect(keyed.reads.calls - plain.reads.calls).toBe(2);
    expect([added('PutItemCommand'), added('UpdateItemCommand')]).toEqual([1, 1]);
    const replay = await countReads(() => transfer(ticket.id, { typeId: vip.id }, key));
    expect(replay.result.headers['idempotent-replayed']).toBe('true');
    expect(replay.reads.byCommand).toEqual({ PutItemCommand: 1, GetItemCommand: 1 });
  });

  it('answers 422 when the key is reused with a different body, and acts on nothing', async () => {
    const { ga, vip, ticket } = await oneTicket();
    const key = randomUUID();
    expect((await transfer(ticket.id, { attendee: { partyMember: 'Ada' } }, key)).status).toBe(200);
    const reused = await transfer(ticket.id, { typeId: vip.id }, key);
    expect(reused.status).toBe(422);
    expect(reused.headers['content-type']).toBe('application/problem+json');
    expect(reused.body).toMatchObject({
      type: '/problems/unprocessable',
      status: 422,
      reason: 'idempotency_key_reused',
    });
    expect(await readTicketRecord(ticket.id)).toMatchObject({
      typeId: ga.id,
      transferState: 'none',
      partyMember: 'Ada',
    });
  });

  it('answers 409 with Retry-After while a request with the same key is in flight', async () => {
    const { vip, ticket } = await oneTicket();
    const key = randomUUID();
    const body = { typeId: vip.id };
    const scope = { route: 'tickets/transfer', caller: { kind: 'admin' as const, id: ADMIN_ID }, key };
    expect(await claimRequest(scope, fingerprintOf({ path: { id: ticket.id }, query: {}, body }), 20_000)).toEqual({
      outcome: 'claimed',
    });
    const busy = await transfer(ticket.id, body, key);
    expect(busy.status).toBe(409);
    expect(busy.body.reason).toBe('request_in_flight');
    expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(busy.headers['retry-after'])).toBeLessThanOrEqual(20);
    expect(await readTicketRecord(ticket.id)).toMatchObject({ transferState: 'none' });
  });

  it('scopes the key to the caller: another administrator with the same key acts on their own', async () => {
    const { vip, ticket } = await oneTicket();
    const other = await oneTicket();
    const key = randomUUID();
    expect((await transfer(ticket.id, { typeId: vip.id }, key)).status).toBe(200);
    const theirs = await transfer(
      other.ticket.id,
      { typeId: other.vip.id },
      key,
      await adminToken(undefined, ADMIN_ID + 1),
    );
    expect(theirs.status).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.data.transferredFrom).toBe(other.ticket.id);
  });

  it('answers a retried check-in (an offline scanner) with the first answer, 200 admitted, not already_checked_in', async () => {
    const { event, ticket } = await oneTicket();
    const key = randomUUID();
    const first = await checkIn(token, ticket.id, { key });
    expect(first.status).toBe(200);
    const retry = await checkIn(token, ticket.id, { key });
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(retry.body.data.processState).toBe(PROCESS_STATE.checkedIn);
    expect((await readStats(token, event.id)).checkedInTickets).toBe(1);
  });

  /** As if the function died after its commit, before storing the answer: the request record back to in-flight, its lock run out. */
  const dieAfterCommit = (route: string, key: string) =>
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.idempotentRequest(route, `ADMIN#${ADMIN_ID}`, key),
        UpdateExpression: 'SET #status = :inProgress, lockedUntilMs = :past REMOVE answer',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':inProgress': 'IN_PROGRESS', ':past': 0 },
      }),
    );

  it.each([
    ['transfer', 'tickets/transfer'],
    ['check-in', 'tickets/check-in'],
  ])(
    'answers a %s retried after its function died between commit and answer with the first answer, acting once',
    async (kind, route) => {
      const { event, vip, ticket } = await oneTicket();
      const key = randomUUID();
      const send = () =>
        kind === 'transfer' ? transfer(ticket.id, { typeId: vip.id }, key) : checkIn(token, ticket.id, { key });
      const first = await send();
      expect(first.status).toBe(200);
      await dieAfterCommit(route, key);
      const retry = await send();
      expect(retry.status, retry.raw).toBe(200);
      // Not a replay (the record held no stored answer): the first answer the ticket change set on the record.
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      expect(retry.body).toEqual(first.body);
      if (kind === 'transfer')
        expect(await readTicketRecord(ticket.id)).toMatchObject({
          transferState: 'transferred',
          transferredTo: first.body.data.id,
        });
      else expect((await readStats(token, event.id)).checkedInTickets).toBe(1);
      // The key is now completed again: a third try is a plain replay.
      expect((await send()).headers['idempotent-replayed']).toBe('true');
    },
  );

  it('keeps a transfer key to its ticket after a crash: another ticket is 422 idempotency_key_reused, as before the crash', async () => {
    const { vip, ticket } = await oneTicket();
    const other = await oneTicket();
    const key = randomUUID();
    expect((await transfer(ticket.id, { typeId: vip.id }, key)).status).toBe(200);
    await dieAfterCommit('tickets/transfer', key);
    // The one request record keeps its committed first answer through the crash, so its fingerprint still guards the key.
    const reused = await transfer(other.ticket.id, { typeId: other.vip.id }, key);
    expect(reused.status).toBe(422);
    expect(reused.body.reason).toBe('idempotency_key_reused');
    expect(await readTicketRecord(other.ticket.id)).toMatchObject({ transferState: 'none' });
  });

  it('keeps a committed first answer when the request fails after its commit: the key is unlocked, not given back', async () => {
    const scope = { route: 'tickets/transfer', caller: { kind: 'admin' as const, id: ADMIN_ID }, key: randomUUID() };
    const key = keys.idempotentRequest(scope.route, `ADMIN#${ADMIN_ID}`, scope.key);
    expect(await claimRequest(scope, 'same-request', 20_000)).toEqual({ outcome: 'claimed' });
    // As the change's transaction sets it (firstAnswerUpdate).
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET firstAnswer = :answer, firstAnswerOf = :ticket',
        ExpressionAttributeValues: { ':answer': { id: 42 }, ':ticket': 41 },
      }),
    );
    await releaseRequest(scope);
    // Another request is still refused; the same one takes the key over at once and finds the answer.
    expect(await claimRequest(scope, 'another-request', 20_000)).toMatchObject({
      outcome: 'in-flight',
      fingerprint: 'same-request',
    });
    expect(await claimRequest(scope, 'same-request', 20_000)).toEqual({ outcome: 'claimed' });
    expect(await readFirstAnswer(scope, 41)).toEqual({ id: 42 });
  });

  it('refuses a change whose key another request answered meanwhile: 409 idempotency_key_reused, nothing committed', async () => {
    const { vip, ticket } = await oneTicket();
    const other = await oneTicket();
    const key = randomUUID();
    expect((await transfer(ticket.id, { typeId: vip.id }, key)).status).toBe(200);
    await dieAfterCommit('tickets/transfer', key);
    // As a request holding the key (its claim passed) whose change meets the first answer in its own transaction.
    const scope = { route: 'tickets/transfer', caller: { kind: 'admin' as const, id: ADMIN_ID }, key };
    const racing = transferTicket(other.ticket.id, { typeId: other.vip.id }, { kind: 'admin', id: ADMIN_ID }, scope);
    await expect(racing).rejects.toMatchObject({ reason: 'idempotency_key_reused' });
    await expect(racing).rejects.toBeInstanceOf(Conflict);
    expect(await readTicketRecord(other.ticket.id)).toMatchObject({ transferState: 'none' });
  });

  it('changes nothing without the header: a repeated transfer acts again and is refused', async () => {
    const { vip, ticket } = await oneTicket();
    expect((await transfer(ticket.id, { typeId: vip.id })).status).toBe(200);
    const again = await transfer(ticket.id, { typeId: vip.id });
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('transferred');
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses an invalid header with 400 before acting', async () => {
    const { vip, ticket } = await oneTicket();
    for (const key of ['', 'with space', 'k'.repeat(256), 'clé']) {
      const refused = await transfer(ticket.id, { typeId: vip.id }, key);
      expect(refused.status, JSON.stringify(key)).toBe(400);
      expect(refused.body.errors).toEqual([{ path: 'headers.idempotency-key', message: expect.any(String) }]);
    }
    expect((await transfer(ticket.id, { typeId: vip.id }, 'k'.repeat(255))).status).toBe(200);
  });

  it('is only on authenticated rows that may write the table', () => {
    const marked = routes.filter((row) => row.idempotent);
    expect(marked.map((row) => `${row.method} ${row.path}`)).toEqual(
      expect.arrayContaining([
        'POST /tickets/{id}/transfer',
        'POST /tickets/{id}/check-in',
        'POST /ticket/{ticketId}/claim',
      ]),
    );
    for (const row of marked) {
      expect(row.method).toBe('POST');
      expect(row.auth.kind).not.toBe('public');
      expect(row.uses.table).toEqual(expect.arrayContaining(wrapperTableActions(row)));
    }
  });
});
