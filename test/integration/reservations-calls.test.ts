import { randomInt } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '#shared/clock';
import { db, tableName } from '#shared/data/client';
import { allocateIds, idsInHand } from '#shared/data/counters';
import {
  forgetEventForSale,
  rememberSoldOut,
  SALE_CACHE_SECONDS,
  SOLD_OUT_MEMO_MS,
} from '#shared/selling/data/event-sale-cache';
import { RESERVATIONS_PER_NETWORK } from '#shared/selling/use-cases/reservations';
import { keys } from '#shared/data/keys';
import type { CreatedEvent } from '#shared/events/domain/event';
import { call } from '../support/api.ts';
import { commandsSent } from '../support/command-tally.ts';
import { unusedCustomerId } from '../support/customers.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { customerToken } from '../support/tokens.ts';

/**
 * A hold is a few calls (README "Reservations": the hold's path): the network's rate window, the customer's marker
 * and the stock in one read (one BatchGetItem of the marker and a few shards, not a read per shard), the due entry and the
 * transaction (the id from the container's block: one UpdateItem per 100 holds, shared/data/id-blocks.ts); the event and its types come from the container's copy of a few seconds, which an unpublished event
 * leaves within those seconds.
 */
const BASE = '/api/v2/my-account/reservations';

afterEach(() => resetClock());

const stadium = () => seedEvent({ published: true, ticketTypes: [{ name: 'Stand', price: 30, total: 50_000 }] });

const anyNetwork = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

async function hold(event: CreatedEvent, customerId = unusedCustomerId(), sourceIp = anyNetwork()) {
  return call('POST', BASE, {
    token: await customerToken(customerId),
    body: { eventId: event.id, lines: [{ typeId: event.ticketTypes[0]!.id, quantity: 2 }] },
    sourceIp,
  });
}

/** The attempts the network's rate window counts now (none before its first). */
async function windowAttempts(network: string): Promise<number> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.rateWindow(RESERVATIONS_PER_NETWORK.name, network),
      ConsistentRead: true,
    }),
  );
  return (Item?.attempts as number[] | undefined)?.length ?? 0;
}

/** An event of 2 places, both held, whose type this container then found sold out: the memo set for a second. */
async function soldOutRemembered(network: string) {
  const event = await seedEvent({ published: true, ticketTypes: [{ name: 'Stand', price: 30, total: 2 }] });
  const holder = unusedCustomerId();
  const first = await hold(event, holder, network);
  expect(first.status).toBe(201);
  const customerId = await signedInCustomer();
  // The whole stock read finds none left: sold_out, remembered.
  expect((await hold(event, customerId, network)).body.reason).toBe('sold_out');
  return { event, customerId, holder, reservationId: first.body.data.id };
}

/** Ids for the next holds in the container's hand, as 99 holds in 100 find them. */
async function reservationIdsInHand() {
  if (idsInHand('RESERVATION') < 2) await allocateIds('RESERVATION', idsInHand('RESERVATION') + 1);
  expect(idsInHand('RESERVATION')).toBeGreaterThan(1);
}

/** A customer whose session this container has checked already (else a token older than the window reads it first). */
async function signedInCustomer() {
  const customerId = unusedCustomerId();
  const token = await customerToken(customerId);
  expect((await call('GET', `${BASE}/1`, { token })).status).toBe(404);
  return customerId;
}

/** The event unpublished as another container's PATCH would write it: this container's sale copy is not told. */
const unpublishedBehindTheCopy = (eventId: number) =>
  db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.event(eventId),
      UpdateExpression: 'SET published = :no',
      ExpressionAttributeValues: { ':no': false },
    }),
  );

describe('the calls of a hold', () => {
  it("sends 5 calls, one after another, to hold from a type of 64 stock items, once the event is in the container's copy", async () => {
    const event = await stadium();
    const customerId = await signedInCustomer();
    // Another buyer's hold just before puts the event in the container's copy.
    expect((await hold(event)).status).toBe(201);
    await reservationIdsInHand();
    let answer: Awaited<ReturnType<typeof hold>> | undefined;
    const sent = await commandsSent(async () => {
      answer = await hold(event, customerId);
    });
    expect(answer!.status, answer!.raw).toBe(201);
    expect(sent).toEqual([
      // The network's rate window: read, then its attempt recorded.
      'GetItemCommand',
      'PutItemCommand',
      // The customer's marker and 4 random stock shards of the 64: one BatchGetItem.
      'BatchGetItemCommand',
      // Its due entry (the id from the container's block), then the hold's one transaction.
      'PutItemCommand',
      'TransactWriteItemsCommand',
    ]);
  });

  it('writes the window of a network this container counted last without reading it: a sold_out answered in 2 calls', async () => {
    const event = await seedEvent({ published: true, ticketTypes: [{ name: 'Stand', price: 30, total: 2 }] });
    const network = anyNetwork();
    const customerId = await signedInCustomer();
    expect((await hold(event, unusedCustomerId(), network)).status).toBe(201);
    let answer: Awaited<ReturnType<typeof hold>> | undefined;
    const sent = await commandsSent(async () => {
      answer = await hold(event, customerId, network);
    });
    expect(answer!.status, answer!.raw).toBe(409);
    expect(answer!.body.reason).toBe('sold_out');
    // The window's conditional write on the version this container wrote, then the marker and the stock at once.
    expect(sent).toEqual(['PutItemCommand', 'BatchGetItemCommand']);
  });

  it('refuses a type this container found sold out a moment ago from memory alone: no call, the window not counted, until the memo ends or the container gives places back', async () => {
    const network = anyNetwork();
    const { event, customerId, holder, reservationId } = await soldOutRemembered(network);
    const counted = await windowAttempts(network);

    let answer: Awaited<ReturnType<typeof hold>> | undefined;
    const remembered = await commandsSent(async () => {
      answer = await hold(event, customerId, network);
    });
    expect(answer!.status, answer!.raw).toBe(409);
    expect(answer!.body).toMatchObject({ reason: 'sold_out', left: 0 });
    // The event and its types from the container's copy, the type from the memo, the session checked already.
    expect(remembered).toEqual([]);
    expect(await windowAttempts(network)).toBe(counted);
    // A buyer new to the container, with a token younger than the session check's window: no call either.
    const newcomer = await commandsSent(async () => {
      answer = await hold(event, unusedCustomerId(), network);
    });
    expect(answer!.body.reason).toBe('sold_out');
    expect(newcomer).toEqual([]);

    advanceClock(SOLD_OUT_MEMO_MS);
    const afterMemo = await commandsSent(() => hold(event, customerId, network));
    expect(afterMemo).toEqual(['PutItemCommand', 'BatchGetItemCommand']);
    expect(await windowAttempts(network)).toBe(counted + 1);

    // The places given back in this container: the next hold reads the stock again, and takes them.
    const token = await customerToken(holder);
    expect((await call('DELETE', `${BASE}/${reservationId}`, { token })).status).toBe(200);
    expect((await hold(event, customerId, network)).status).toBe(201);
  });

  it("counts the window first for a type in the memo when the event is not in the container's copy: nothing read before it", async () => {
    const network = anyNetwork();
    const { event, customerId } = await soldOutRemembered(network);
    forgetEventForSale(event.id);
    let answer: Awaited<ReturnType<typeof hold>> | undefined;
    const sent = await commandsSent(async () => {
      answer = await hold(event, customerId, network);
    });
    expect(answer!.body).toMatchObject({ reason: 'sold_out', left: 0 });
    // The window's write, then the event and its types read (and kept); the type refused from the memo, no stock read.
    expect(sent).toEqual(['PutItemCommand', 'GetItemCommand', 'QueryCommand']);
  });

  it('refuses a request the hold refuses otherwise after the window, as a container without the memo does', async () => {
    const network = anyNetwork();
    const { event, customerId } = await soldOutRemembered(network);
    const counted = await windowAttempts(network);
    const typeId = event.ticketTypes[0]!.id;
    const token = await customerToken(customerId);
    const ask = (body: object) =>
      call('POST', BASE, { token, body: { eventId: event.id, ...body }, sourceIp: network });
    let tooMany: Awaited<ReturnType<typeof hold>> | undefined;
    const sent = await commandsSent(async () => {
      tooMany = await ask({ lines: [{ typeId, quantity: 11 }] });
    });
    expect(tooMany!.body.reason).toBe('max_per_order');
    expect(sent).toEqual(['PutItemCommand']);
    // A line naming a wave is read for (the event's waves), so it is counted too: a wave not of the event is its 400.
    const wave = await ask({ lines: [{ typeId, quantity: 1, waveTimeId: 999_999_999 }] });
    expect(wave.status).toBe(400);
    expect(await windowAttempts(network)).toBe(counted + 2);
  });

  it("never answers a draft's type from memory: its access is checked after the window, so a customer without an order is told the event does not exist", async () => {
    const event = await seedEvent({ published: true, ticketTypes: [{ name: 'Stand', price: 30, total: 2 }] });
    await unpublishedBehindTheCopy(event.id);
    const network = anyNetwork();
    const customerId = await signedInCustomer();
    // Read afresh (a draft's copy is never trusted) and kept, unpublished: the customer holds no order of it.
    expect((await hold(event, customerId, network)).raw).toContain(`Event ${event.id} does not exist.`);
    rememberSoldOut(event.ticketTypes[0]!.id, 0);
    let answer: Awaited<ReturnType<typeof hold>> | undefined;
    const sent = await commandsSent(async () => {
      answer = await hold(event, customerId, network);
    });
    expect(answer!.status).toBe(400);
    expect(answer!.raw).toContain(`Event ${event.id} does not exist.`);
    // The window first, then the draft read again and the customer's link to it looked for.
    expect(sent[0]).toBe('PutItemCommand');
  });

  it('reads the event and its types again once the copy is as old as its seconds', async () => {
    const event = await stadium();
    const customerId = await signedInCustomer();
    expect((await hold(event)).status).toBe(201);
    advanceClock(SALE_CACHE_SECONDS * 1000);
    await reservationIdsInHand();
    const sent = await commandsSent(() => hold(event, customerId));
    expect(sent.slice(0, 4)).toEqual(['GetItemCommand', 'PutItemCommand', 'GetItemCommand', 'QueryCommand']);
    expect(sent).toHaveLength(7);
  });

  it("stops selling an event unpublished by another container within the copy's seconds", async () => {
    const event = await stadium();
    expect((await hold(event)).status).toBe(201);
    await unpublishedBehindTheCopy(event.id);
    // Within the seconds the copy still sells; the stock's own condition still guards every place.
    expect((await hold(event)).status).toBe(201);
    advanceClock(SALE_CACHE_SECONDS * 1000);
    const refused = await hold(event);
    // An unpublished event is the unknown event's 400 (README "Reservations").
    expect(refused.status).toBe(400);
    expect(refused.raw).toContain(`Event ${event.id} does not exist.`);
  });
});
