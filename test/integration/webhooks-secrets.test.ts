import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { call } from '../support/api.ts';
import { makeAdmin, staffToken } from '../support/staff.ts';
import { editTicket, eventually, subscribe, watchedTicket, WEBHOOKS, webhookFixture } from '../support/webhooks.ts';

// Its own table with a stream, set before anything reads TABLE_NAME (the shared table has none: test/support/env.ts).
await vi.hoisted(async () => (await import('../support/env.ts')).useOwnStreamTable('secrets'));

/**
 * The signing secrets are sealed in the table (shared/webhooks/services/webhook-secret-box.ts):
 * the item holds AES-256-GCM ciphertext under the stage's key in Secrets Manager, bound to the
 * webhook's id; receivers still verify with the secret the 201 gave them.
 */
/** An event no test makes (ids come from one sequence): these subscriptions hear of no ticket change, only pings. */
const NO_EVENT = 2 ** 40;

let token: string;

const webhooks = webhookFixture();
const { receiver } = webhooks;

beforeAll(async () => {
  token = await staffToken(await makeAdmin({ permissions: ['webhooks:manage', 'tickets:read', 'tickets:write'] }));
});

const rawItem = async (id: number) =>
  (await db.send(new GetCommand({ TableName: tableName(), Key: keys.webhook(id), ConsistentRead: true }))).Item!;

const setStoredSecrets = (id: number, secrets: unknown) =>
  db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.webhook(id),
      UpdateExpression: 'SET secrets = :secrets',
      ExpressionAttributeValues: { ':secrets': secrets },
    }),
  );

/** The secret's bytes, as the item would hold them in any encoding: the whole secret, and its base64 part. */
const traces = (secret: string) => [secret, secret.slice('whsec_'.length)];

const ping = async (id: number) => {
  const answer = await call('POST', `${WEBHOOKS}/${id}/ping`, { token });
  expect(answer.status).toBe(200);
  return answer;
};

describe('webhook signing secrets in the table', () => {
  it('are stored sealed: the raw item holds no secret, and a delivered change verifies with the one the 201 gave', async () => {
    const r = await receiver();
    const { token: editor, ticket, hooks } = await watchedTicket(r, ['ticket.updated']);
    const [hook] = hooks;
    const item = await rawItem(hook!.id);
    for (const trace of traces(hook!.secret)) expect(JSON.stringify(item)).not.toContain(trace);
    expect(JSON.stringify(item)).not.toContain('whsec_');
    expect(item.secrets).toEqual([{ secret: expect.objectContaining({ enc: 'v1', kid: expect.any(String) }) }]);

    await editTicket(editor, ticket.id, { bibNumber: '2046' });
    await eventually(webhooks.workers, () => expect(r.received).toHaveLength(1));
    expect(r.received[0]!.message).toMatchObject({ type: 'ticket.updated', data: { ticketId: ticket.id } });
    expect(r.unverified).toBe(0);
  });

  it('does not open on another webhook: a copied ciphertext signs nothing and the attempt says why', async () => {
    const r = await receiver();
    const source = await subscribe(token, r, { events: ['ticket.updated'], eventIds: [NO_EVENT] });
    const target = await subscribe(token, r, { events: ['ticket.updated'], eventIds: [NO_EVENT] });
    await setStoredSecrets(target.id, (await rawItem(source.id)).secrets);

    const answer = await ping(target.id);
    expect(answer.body.data).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null });
    expect(answer.body.data.lastError).toContain('cannot be decrypted');
    for (const trace of [...traces(source.secret), 'whsec_']) expect(answer.raw).not.toContain(trace);
    // Nothing reached the receiver, signed or not.
    expect(r.received).toHaveLength(0);
    expect(r.unverified).toBe(0);
    // The source still signs with its own.
    await ping(source.id);
    expect(r.received).toHaveLength(1);
  });

  it('stay sealed across a rotation, both secrets signing', async () => {
    const r = await receiver();
    const hook = await subscribe(token, r, { events: ['ticket.updated'], eventIds: [NO_EVENT] });
    const rotated = await call('POST', `${WEBHOOKS}/${hook.id}/rotate-secret`, { token });
    expect(rotated.status).toBe(200);
    const item = JSON.stringify(await rawItem(hook.id));
    for (const trace of [...traces(hook.secret), ...traces(rotated.body.data.secret), 'whsec_'])
      expect(item).not.toContain(trace);
    r.secrets.splice(0, r.secrets.length, rotated.body.data.secret);
    await ping(hook.id);
    r.secrets.splice(0, r.secrets.length, hook.secret);
    await ping(hook.id);
    expect(r.received).toHaveLength(2);
    expect(r.unverified).toBe(0);
  });

  it('stored in plain text sign nothing, and say so without the value', async () => {
    const r = await receiver();
    const hook = await subscribe(token, r, { events: ['ticket.updated'], eventIds: [NO_EVENT] });
    const expiring = new Date(Date.now() + 3_600_000).toISOString();
    const old = await subscribe(token, r, { events: ['ticket.updated'], eventIds: [NO_EVENT] });
    // Written in the clear behind the API's back: the current secret and a rotated-out one.
    await setStoredSecrets(hook.id, [{ secret: hook.secret }, { secret: old.secret, expiresAt: expiring }]);
    expect(JSON.stringify(await rawItem(hook.id))).toContain(hook.secret);
    // The attempt records why (and the log line says the same, `why`: deliveries.ts), never the value.
    const refused = await ping(hook.id);
    expect(refused.body.data).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null });
    expect(refused.body.data.lastError).toMatch(/cannot be decrypted: it is plain text/);
    expect(refused.raw).not.toContain(hook.secret);
    expect(r.received.length + r.unverified).toBe(0);
  });
});
