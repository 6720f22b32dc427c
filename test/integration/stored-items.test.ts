import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { logger } from '#shared/logger';
import { call } from '../support/api.ts';
import { oneTicket, TICKETS } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * Items become values through their entity's schema (shared/data/client.ts `parseItem`): an item the table holds in
 * a shape its entity does not have is our bug, answered as a 500 with the request id (never the item), logged with
 * the item's keys and what is wrong, and nothing is written on it.
 */
let token: string;
beforeAll(async () => {
  token = await adminToken();
});
afterEach(() => vi.restoreAllMocks());

const storedTicket = async (id: number) =>
  (await db.send(new GetCommand({ TableName: tableName(), Key: keys.ticket(id), ConsistentRead: true }))).Item;

/** Breaks the stored ticket record behind the API's back: an update expression of the test's own. */
const breakTicket = (id: number, update: string, values?: Record<string, unknown>) =>
  db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.ticket(id),
      UpdateExpression: update,
      ...(values ? { ExpressionAttributeValues: values } : {}),
    }),
  );

/** The error the 500 logged: the StoredItemInvalid the read threw. */
function loggedError(spy: ReturnType<typeof vi.spyOn>): Error {
  const logged = spy.mock.calls.find(([message]: unknown[]) => message === 'unhandled error');
  expect(logged, 'the 500 is logged').toBeDefined();
  return (logged![1] as { error: Error }).error;
}

describe('an item its entity cannot read', () => {
  it('answers a ticket missing an attribute with a 500 that names no item, and logs its keys and the attribute', async () => {
    const { ticket } = await oneTicket();
    await breakTicket(ticket.id, 'REMOVE barcode');
    const errors = vi.spyOn(logger, 'error');

    const response = await call('GET', `${TICKETS}/${ticket.id}`, { token });

    expect(response.status).toBe(500);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.body.requestId).toEqual(expect.any(String));
    expect(JSON.stringify(response.body)).not.toContain(`TICKET#${ticket.id}`);
    const error = loggedError(errors);
    expect(error.name).toBe('StoredItemInvalid');
    expect(error.message).toContain(`ticket TICKET#${ticket.id} / TICKET`);
    expect(error.message).toContain('barcode');
  });

  it('answers an attribute of another type the same way: a mistyped price is not read as a price', async () => {
    const { ticket } = await oneTicket();
    await breakTicket(ticket.id, 'SET price = :text', { ':text': 'twenty' });
    const errors = vi.spyOn(logger, 'error');

    const response = await call('GET', `${TICKETS}/${ticket.id}`, { token });

    expect(response.status).toBe(500);
    expect(loggedError(errors).message).toMatch(/price/);
  });

  it('changes nothing when the item a change reads is unreadable', async () => {
    const { ticket } = await oneTicket();
    await breakTicket(ticket.id, 'REMOVE barcode');
    const before = await storedTicket(ticket.id);

    const response = await call('PATCH', `${TICKETS}/${ticket.id}`, {
      token,
      body: { data: { partyMember: 'Someone Else' } },
    });

    expect(response.status).toBe(500);
    expect(await storedTicket(ticket.id)).toEqual(before);
  });
});
