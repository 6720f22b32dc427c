import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { updateTicket } from '#shared/tickets/use-cases/edit-ticket';
import { listOrderTickets } from '../support/stored-records.ts';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { commandsSent } from '../support/command-tally.ts';
import { newCustomer } from '../support/customers.ts';
import { allocateIds, idsInHand } from '#shared/data/counters';
import { ID_BLOCK_SIZES } from '#shared/data/id-blocks';
import { SHARD_RUN } from '#shared/tickets/data/stats-shards';
import { keys } from '#shared/data/keys';
import { ORDER_COUNT_GROUPS, ORDER_COUNT_SHARDS } from '#shared/selling/data/order-count-shards';
import { getOrder } from '#shared/selling/data/orders';
import { orderStatusEntryItem } from '#shared/selling/data/order-list-entries';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import { payAsBrowser } from '../support/paid-checkout.ts';
import { claimedThenIssued } from '../support/paid-order-issuing.ts';
import { listsCaughtUp, ordersCaughtUp } from '../support/lists-caught-up.ts';
import { runAs } from '../../bin/local/invoke.ts';
import { handler as ticketChanges } from '../../functions/jobs/ticket-changes.ts';
import { standInControl, useStripeStandIn } from '../support/stripe.ts';
import { wordsOf } from '#shared/domain/words';
import { MIN_SEARCH_WORD } from '#shared/lists/search-tokens';
import { countWrites, describeWrites, storedItem } from '../support/dynamo-writes.ts';
import { type DynamoWrites, type Item, itemSize } from '../support/write-pricing.ts';
import { checkIn, SYSTEM, TICKETS } from '../support/tickets.ts';
import { adminToken, customerToken } from '../support/tokens.ts';

/**
 * Write units by AWS's published rules (test/support/write-pricing.ts prices the items each
 * request changed, transactions 2× with their index writes), on a ticket of an order. The
 * README's cost table shows these figures; the targets are check-in ≤ 12, PATCH of one
 * attendee field ≤ 12, transfer ≤ 30.
 */
let token: string;

beforeAll(async () => {
  token = await adminToken(['checkin:scan', 'tickets:read', 'tickets:write'], 77_001);
});

async function orderedTicket() {
  const event = await seedEvent();
  const customer = await newCustomer();
  const order = await placeOrder(event, customer.id, [event.ticketTypes[0]!.id]);
  const [ticket] = await listOrderTickets(order.id);
  return { event, ticket: ticket! };
}

/** The units per written item kind: `TICKET`, `HISTORY`, `LIST#EVENT`, `SEARCH`, `POS`, `STATS`, a customer's `TICKETS#count`… */
function byKind(writes: DynamoWrites): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const write of writes.items) {
    const sk = write.key.split(' ')[1]!;
    // A reservation's due entry is keyed by its expiry (`<iso>#<id>`), under RESERVATION_DUE#… (keys.ts).
    // A seller's invoice numbers of a series are keyed by the year (`YEAR#<year>`), under INVOICE_NUMBERS#<seller>#<series>.
    // A search entry is keyed where a search reads it (`SEARCH#<event>#<bucket>` / `<token>#<id>`), its ticket's token
    // list `SEARCH` in the ticket's partition.
    const kind = write.key.startsWith('RESERVATION_DUE#')
      ? 'DUE'
      : write.key.startsWith('INVOICE_NUMBERS#')
        ? 'INVOICE_NUMBERS'
        : write.key.startsWith('SEARCH#')
          ? 'SEARCH'
          : (/^(LIST(#EVENT|#PURCHASE|#ACCESS)?|TICKETS#count|TICKET_TYPE|TICKET|HISTORY|SEARCH|SCAN|STATS|POS|BOUGHT|UNIQUE|SEQUENCE|REQUEST|RESERVATION#EVENT|RESERVATION|STOCK|RATE)/.exec(
              sk,
            )?.[1] ?? sk);
    kinds[kind] = (kinds[kind] ?? 0) + write.units;
  }
  return kinds;
}

/**
 * What the table stream's consumer writes after a change, for its tickets (shared/lists/list-catch-up.ts): their list
 * entries, positions and search entries, each a plain write (no transaction: 1 unit per started KB of the item and of
 * each index entry). A second run of the same records writes nothing (a redelivered or replayed batch).
 */
async function consumerWrites(tickets: readonly (number | { id: number })[]): Promise<DynamoWrites> {
  let sent: string[] = [];
  const { writes } = await countWrites(async () => {
    sent = await commandsSent(() => listsCaughtUp(tickets));
  });
  expect(
    writes.items.filter((write) => write.transactional),
    describeWrites(writes),
  ).toEqual([]);
  // Each block moved by one UpdateItem, its marks as the stored entries said (no condition lost, no read).
  const blocks = writes.items.filter((write) => write.key.split(' ')[1]!.startsWith('POS#'));
  expect(sent.filter((command) => command.startsWith('Update'))).toHaveLength(blocks.length);
  expect(sent.filter((command) => command === 'GetItemCommand')).toEqual([]);
  // Read again (a redelivered or replayed record): nothing sent to write.
  const again = await commandsSent(() => listsCaughtUp(tickets));
  expect(again.filter((command) => /Update|Write|Put|Delete/.test(command))).toEqual([]);
  return writes;
}

/**
 * What a cancellation of a paid order writes on the order's side, beside the ticket's own
 * change: the order's `cancellation` (one UpdateItem, 1 unit per started KB: the order item is in no index), its
 * refund recorded (one UpdateItem, the same), then its status (in a transaction, 2 per KB) with the order's shards of
 * its event's and every event's order counts (2 each: shared/selling/data/order-count-shards.ts), and once that
 * answered its status entry moved (`ORDER_STATUS`, a plain Put: 1 for the item, a delete and a put on GSI4 and on
 * GSI6: 5). Its list entry (`ORDER_LISTS`, in the four lists that do not move with the status) is not written. 22 on
 * the order when the order item was in GSI4 and GSI6 itself (the status's 16 in the transaction for an item under
 * 2 KB), 57 when it was in all six indexes.
 * The refund is its own conditional write, not a part of the status's transaction, so that a refund Stripe's
 * `charge.refunded` records meanwhile is never overwritten (shared/README.md "Refunds").
 */
const ORDER_CANCEL_UNITS = { ORDER_STATUS: 5, COUNT: 4 };

/**
 * The sale's ids come from a block this container holds (shared/data/id-blocks.ts): one UpdateItem of its sequence per
 * 100 ids, so most requests write no `SEQUENCE` at all (amortised: 0.01 units an id). A test counting a request
 * arranges what the container holds: its rest taken, then one id, so a fresh block is held with 99 left.
 */
async function freshIdBlock(sequence: string): Promise<void> {
  const held = idsInHand(sequence);
  if (held) await allocateIds(sequence, held);
  await allocateIds(sequence);
  expect(idsInHand(sequence)).toBe(ID_BLOCK_SIZES[sequence]! - 1);
}

/** Takes every id of `sequence` this container holds: its next id draws a block. */
async function spendIdBlock(sequence: string): Promise<void> {
  const held = idsInHand(sequence);
  if (held) await allocateIds(sequence, held);
  expect(idsInHand(sequence)).toBe(0);
}

/** The most a check-in adds to the ticket item: its record (who, when, and for a gate scan which scan and its upload). */
const CHECK_IN_RECORD_BYTES = 170;
/** With the longest `deviceId` a gate scan may carry (40 bytes) and its name. */
const GATE_SCAN_RECORD_BYTES = CHECK_IN_RECORD_BYTES + 'deviceId'.length + 40;

/**
 * Runs a check-in of `ticketId` and answers what its ticket item costs, from the item's sizes as stored before and after
 * (not assumed: the ids the files before this one took lengthen it, and a gate scan's record takes a ticket of about
 * 1,000 bytes past 1 KB in some runs). In the transaction: 2 per started KB of the item, and in each of the two
 * update-time indexes (GSI5, GSI6), whose keys change, the old entry removed and the new one put, 2 per KB each: 10
 * while it stays within 1 KB (README "Cost per request"). The record the check-in adds is bounded, so a larger one fails.
 */
async function checkInCountingTicket<T>(ticketId: number, work: () => Promise<T>, bound = CHECK_IN_RECORD_BYTES) {
  const stored = async () => (await storedItem(keys.ticket(ticketId))) as Item;
  const before = await stored();
  const counted = await countWrites(work);
  const after = await stored();
  expect(itemSize(after) - itemSize(before)).toBeLessThanOrEqual(bound);
  const kb = (item: Item) => Math.ceil(itemSize(item) / 1024);
  return { ...counted, ticketUnits: 2 * Math.max(kb(before), kb(after)) + 2 * 2 * (kb(before) + kb(after)) };
}

describe('write units by AWS rules, on a ticket of an order', () => {
  it("PATCH of one attendee field: the ticket (in the update-time indexes only: across events and its event's) and its history, 12 units", async () => {
    const { ticket } = await orderedTicket();
    const { result, writes } = await countWrites(() =>
      call('PATCH', `${TICKETS}/${ticket.id}`, { token, body: { data: { partyMemberCompany: 'Acme' } } }),
    );
    expect(result.status).toBe(200);
    expect(byKind(writes), describeWrites(writes)).toEqual({ TICKET: 10, HISTORY: 2 });
    expect(writes.units).toBeLessThanOrEqual(12);
  });

  // A ticket's search entries are bucketed by a token's first two characters, and each entry lists the earlier
  // tokens of its bucket (`mates`, shared/lists/ticket-search-entries.ts), so a search by their common prefix counts
  // the ticket once. A new token therefore rewrites the entries of its bucket that sort after it, whatever field
  // they come from: a barcode is chosen for each case (the seeded barcode is replaced first), never left to chance.
  // The table stream's consumer writes them after the change, as plain puts (2 units each: the entry, GSI2; 3 when
  // they were in the ticket's partition and on GSI1 too), and the ticket's token list (1).
  const renames = [
    { barcode: 'ZX4471', case: 'no token of its bucket', search: 3 },
    { barcode: 'OK04471', case: 'the barcode shares its bucket and sorts before it (okafor lists it)', search: 3 },
    {
      barcode: 'OKZ4471',
      case: 'the barcode shares its bucket and sorts after it (its entry now lists okafor)',
      search: 5,
    },
  ];
  for (const rename of renames)
    it(`PATCH of a name to Okafor, ${rename.case}: 12, then ${rename.search} search units by the stream's consumer`, async () => {
      const { event, ticket } = await orderedTicket();
      const known = {
        partyMember: 'Ada',
        partyMemberLastName: 'Lovelace',
        emailAddress: 'ada.lovelace@ticketing.test',
        barcode: rename.barcode,
      };
      await updateTicket(ticket.id, known, SYSTEM);
      await listsCaughtUp([ticket]);
      const { result, writes } = await countWrites(() =>
        call('PATCH', `${TICKETS}/${ticket.id}`, { token, body: { data: { partyMemberLastName: 'Okafor' } } }),
      );
      expect(result.status).toBe(200);
      expect(byKind(writes), describeWrites(writes)).toEqual({ TICKET: 10, HISTORY: 2 });
      // The old last name's token stays while another field (the email) still holds it.
      const consumer = await countWrites(() => listsCaughtUp([ticket]));
      expect(byKind(consumer.writes), describeWrites(consumer.writes)).toEqual({ SEARCH: rename.search });
      // Read again (a redelivered record): nothing more to write.
      expect((await countWrites(() => listsCaughtUp([ticket]))).writes.units).toBe(0);
      // What the bucket's rewrite is for: the prefix both tokens share finds the ticket once.
      const found = await call('GET', `/api/v2/ticket?eventId=${event.id}&search=ok`, { token });
      expect(found.body.data.map((entry: { id: number }) => entry.id)).toEqual([ticket.id]);
    });

  it("transfer to a new first name: ticket, history and the id sequence, within 30 (the changed search token is the stream consumer's)", async () => {
    const { event, ticket } = await orderedTicket();
    const { result, writes } = await countWrites(() =>
      call('POST', `${TICKETS}/${ticket.id}/transfer`, {
        token,
        body: { typeId: event.ticketTypes[0]!.id, attendee: { partyMember: 'Nadia' } },
      }),
    );
    expect(result.status).toBe(200);
    expect(writes.units, describeWrites(writes)).toBeLessThanOrEqual(30);
    expect(byKind(writes)).toMatchObject({ TICKET: 10, HISTORY: 2 });
    // No list entry moves: the attendee is in none of them.
    expect(Object.keys(byKind(writes)).filter((kind) => kind.startsWith('LIST'))).toEqual([]);
  });

  it("transfer to another type: a new ticket in the type's lists, its type counted in the event's position block and its purchase counts", async () => {
    const { event, ticket } = await orderedTicket();
    await freshIdBlock('TICKET');
    const { result, writes } = await countWrites(() =>
      call('POST', `${TICKETS}/${ticket.id}/transfer`, {
        token,
        body: { typeId: event.ticketTypes[1]!.id, attendee: { partyMember: 'Nadia' } },
      }),
    );
    expect(result.status).toBe(200);
    const blocksOf = (counted: DynamoWrites) =>
      counted.items
        .map((write) => write.key.split(' ')[1]!)
        .filter((sk) => sk.startsWith('POS#'))
        .map((sk) => sk.replace(/#\d+$/, ''))
        .sort();
    // In the transfer's transaction, of the positions only the all-events totals' shard (a `totalCount`).
    expect(blocksOf(writes)).toEqual(['POS#count']);
    // The replacement is bought when the original was, and the original stays listed: one more in that month, hour and
    // minute of the event and of the new type, and one more of its customer's. One history entry, the original's: the
    // replacement's creation is kept on its record.
    expect(byKind(writes), describeWrites(writes)).toMatchObject({
      HISTORY: 2,
      POS: 2,
      STATS: 4,
      BOUGHT: 12,
      'TICKETS#count': 2,
      // The original's place back to its type's stock, the replacement's taken from the new type's (shared/selling/data/stock.ts):
      // each shard's `sold` moves with it, so neither type's item is written.
      STOCK: 4,
    });
    expect(byKind(writes).TICKET_TYPE, describeWrites(writes)).toBeUndefined();
    // README "Cost per request": 44 (the new ticket's list and search entries and positions are the stream consumer's;
    // 46 when its creation's history entry was an item of its own); its id from the container's block.
    expect(Object.keys(byKind(writes)).filter((kind) => kind.startsWith('LIST') || kind === 'SEARCH')).toEqual([]);
    expect(writes.units, describeWrites(writes)).toBe(44);
    // Then the consumer: the new ticket enters its lists (its three entries), the event's block (its type's counters in
    // the same Update), its team's block and span, the all-events block, its customer's block and span; no type block of
    // its own (the original stays listed, marked transferred: its entries unchanged).
    const consumer = await consumerWrites([ticket.id, Number(result.body.data.id)]);
    expect(blocksOf(consumer)).toEqual([
      'POS#all',
      'POS#event',
      'POS#span#team#0',
      'POS#span#tickets',
      'POS#team#0',
      'POS#tickets',
    ]);
    expect(byKind(consumer), describeWrites(consumer)).toMatchObject({
      LIST: 4,
      'LIST#EVENT': 3,
      'LIST#PURCHASE': 5,
      POS: 6,
    });
  });

  it("check-in: the ticket item costs 10 within 1 KB (the two update-time indexes), its statistics and the all-events totals 4 (18; the target of 12 is not met), the process-state lists 11 by the stream's consumer", async () => {
    const { ticket } = await orderedTicket();
    const { result, writes, ticketUnits } = await checkInCountingTicket(ticket.id, () => checkIn(token, ticket.id));
    expect(result.status).toBe(200);
    // In the check-in's transaction, the counts users see: its statistics shard and the all-events totals' shard.
    expect(byKind(writes), describeWrites(writes)).toEqual({
      TICKET: ticketUnits,
      HISTORY: 2,
      SCAN: 2,
      STATS: 2,
      POS: 2,
    });
    expect(writes.units).toBe(8 + ticketUnits);
    // LIST and LIST#EVENT carry the process state the `exclude_process_states` lists filter on (LIST's state-keyed
    // GSI2 entry moved: 2, its other two rewritten: 1 each), and three position blocks count it per state (the event's,
    // its team's, the all-events list's; its team's span counts it as active either way): the consumer's, plain.
    const consumer = await consumerWrites([ticket]);
    expect(byKind(consumer), describeWrites(consumer)).toEqual({ LIST: 5, 'LIST#EVENT': 3, POS: 3 });
  });

  it("an online gate scan (POST /scans): one BatchGetItem before the check-in's own read (a BatchGetItem: an upload reads all its tickets at once) and transaction, which adds the scan's record by client id (2 units)", async () => {
    const { ticket } = await orderedTicket();
    const { ticket: other } = await orderedTicket();
    // The first request of a process reads what later ones find cached: compare warm ones.
    await checkIn(token, 987_654_321);
    const checkInSent = await commandsSent(() => checkIn(token, other.id));
    const scan = { id: randomUUID(), barcode: ticket.barcode, scannedAt: new Date().toISOString() };
    let gateSent: string[] = [];
    const { result, writes, ticketUnits } = await checkInCountingTicket(ticket.id, async () => {
      let answer: Awaited<ReturnType<typeof call>> | undefined;
      gateSent = await commandsSent(async () => {
        answer = await call('POST', '/api/v2/scans', { token, body: { eventId: ticket.eventId, scans: [scan] } });
      });
      return answer!;
    });
    expect(result.body.data[0].result).toBe('admitted');
    const ticketRead = (command: string) => (command === 'GetItemCommand' ? 'BatchGetItemCommand' : command);
    expect(gateSent).toEqual(['BatchGetItemCommand', ...checkInSent.map(ticketRead)]);
    expect(byKind(writes), describeWrites(writes)).toEqual({
      TICKET: ticketUnits,
      HISTORY: 2,
      SCAN: 2,
      STATS: 2,
      POS: 2,
      GATE_SCAN: 2,
    });
    expect(writes.units).toBe(10 + ticketUnits);
  });

  it('a gate scan with the longest deviceId and gate the route takes adds a bounded record to the ticket item, and costs as a short one', async () => {
    const { ticket } = await orderedTicket();
    // 40 bytes each: the cap (shared/gate/domain/gate.ts); the gate stays on the scan's own record.
    const scan = {
      id: randomUUID(),
      barcode: ticket.barcode,
      scannedAt: new Date().toISOString(),
      deviceId: 'D'.repeat(40),
      gate: 'G'.repeat(40),
    };
    const { result, writes, ticketUnits } = await checkInCountingTicket(
      ticket.id,
      () => call('POST', '/api/v2/scans', { token, body: { eventId: ticket.eventId, scans: [scan] } }),
      GATE_SCAN_RECORD_BYTES,
    );
    expect(result.body.data[0].result).toBe('admitted');
    expect(byKind(writes), describeWrites(writes)).toMatchObject({ HISTORY: 2, SCAN: 2, GATE_SCAN: 2 });
    expect(writes.units).toBe(10 + ticketUnits);
  });

  // The claim's Put (1), the first answer set in the transaction (2) and the completion (2): one item, as the separate answer item cost.
  it('a keyed check-in adds its idempotency record, claimed, answered in the transaction and completed', async () => {
    const { ticket } = await orderedTicket();
    const { writes, ticketUnits } = await checkInCountingTicket(ticket.id, () =>
      checkIn(token, ticket.id, { key: randomUUID() }),
    );
    expect(byKind(writes), describeWrites(writes)).toMatchObject({ TICKET: ticketUnits, REQUEST: 5 });
    expect(writes.units).toBe(13 + ticketUnits);
  });

  it("POST /orders/{id}/cancel of a one-ticket order: the ticket's cancellation, and the order's three writes and counts", async () => {
    const event = await seedEvent();
    const customer = await newCustomer();
    const order = await placeOrder(event, customer.id, [event.ticketTypes[0]!.id]);
    const staff = await adminToken(['orders:refund'], 77_002);
    const { result, writes } = await countWrites(() =>
      call('POST', `/api/v2/orders/${order.id}/cancel`, { token: staff, body: {} }),
    );
    expect(result.status, result.raw).toBe(200);
    // The order (in no index) started, its desk refund recorded, then moved status with its two counts, then its
    // status entry.
    const kinds = byKind(writes);
    const started = writes.items.find((write) => write.key === `ORDER#${order.id} ORDER`)!.item;
    expect(started, describeWrites(writes)).toBeLessThanOrEqual(2);
    expect(
      { ORDER: kinds.ORDER, ORDER_STATUS: kinds.ORDER_STATUS, COUNT: kinds.COUNT },
      describeWrites(writes),
    ).toEqual({ ...ORDER_CANCEL_UNITS, ORDER: 4 * started });
  });
});

describe('write units by AWS rules, of a reservation (a hold is light)', () => {
  // Priced as an organiser prices: a taxed type and a booking fee with its tax (the line's figures are stored).
  const hold = async () => {
    const event = await seedEvent({
      published: true,
      bookingFee: { perTicket: 1.25, percent: 2.5 },
      feeTax: { name: 'VAT', rate: 21, inclusive: false },
      ticketTypes: [{ name: 'Runner', price: 10, total: 50, tax: { name: 'VAT', rate: 21, inclusive: true } }],
    });
    const customer = await newCustomer();
    const token = await customerToken(customer.id);
    return () =>
      call('POST', '/api/v2/my-account/reservations', {
        token,
        body: { eventId: event.id, lines: [{ typeId: event.ticketTypes[0]!.id, quantity: 2 }] },
      });
  };

  it("a hold of one line: its stock shard, the reservation, the customer marker and its network's count in one transaction (8), its due entry put just before (1), its network's rate window (1); its id from the container's block (0)", async () => {
    const reserve = await hold();
    await freshIdBlock('RESERVATION');
    const { result, writes } = await countWrites(reserve);
    expect(result.status).toBe(201);
    expect(byKind(writes), describeWrites(writes)).toEqual({
      STOCK: 2,
      RESERVATION: 2,
      'RESERVATION#EVENT': 2,
      DUE: 1,
      NETWORK_HELD: 2,
      RATE: 1,
    });
    expect(writes.units).toBe(10);
    // The priced line's figures keep the reservation within 1 KB (2 units in the transaction).
    const stored = (await storedItem(keys.reservation(result.body.data.id))) as Item;
    console.info(`A priced hold's reservation item: ${itemSize(stored)} bytes`);
    expect(itemSize(stored)).toBeLessThan(1024);
  });

  it("a hold naming a promo code: the same, with one shard of the code's uses moved in the hold's transaction (12)", async () => {
    const event = await seedEvent({ published: true });
    const code = await call('POST', `/api/v2/events/${event.id}/promo-codes`, {
      token: await adminToken(['events:write'], 77_003),
      body: { code: `UNITS-${randomUUID().slice(0, 8)}`, percentOff: 10 },
    });
    expect(code.status, code.raw).toBe(201);
    const customer = await newCustomer();
    const customerAuth = await customerToken(customer.id);
    await freshIdBlock('RESERVATION');
    const { result, writes } = await countWrites(() =>
      call('POST', '/api/v2/my-account/reservations', {
        token: customerAuth,
        body: {
          eventId: event.id,
          lines: [{ typeId: event.ticketTypes[0]!.id, quantity: 2 }],
          promoCode: code.body.data.code,
        },
      }),
    );
    expect(result.status, result.raw).toBe(201);
    expect(byKind(writes), describeWrites(writes)).toEqual({
      STOCK: 2,
      PROMO_USES: 2,
      RESERVATION: 2,
      'RESERVATION#EVENT': 2,
      DUE: 1,
      NETWORK_HELD: 2,
      RATE: 1,
    });
    expect(writes.units).toBe(12);
    // Its release gives the use back in its own transaction: 12 where a release without a code writes 10.
    const released = await countWrites(() =>
      call('DELETE', `/api/v2/my-account/reservations/${result.body.data.id}`, { token: customerAuth }),
    );
    expect(released.writes.units, describeWrites(released.writes)).toBe(12);
  });

  it("the hold that finds its container's block spent draws the next 100 ids (1 unit, once per 100 holds)", async () => {
    const reserve = await hold();
    await spendIdBlock('RESERVATION');
    const { result, writes } = await countWrites(reserve);
    expect(result.status).toBe(201);
    expect(byKind(writes).SEQUENCE, describeWrites(writes)).toBe(1);
    expect(writes.units).toBe(11);
    expect(idsInHand('RESERVATION')).toBe(ID_BLOCK_SIZES.RESERVATION! - 1);
  });

  it("a release: the reservation, its stock back, the marker turned cool-down, the due entry gone and its network's count given back, in one transaction (10)", async () => {
    const event = await seedEvent({ published: true });
    const customer = await newCustomer();
    const customerAuth = await customerToken(customer.id);
    const held = await call('POST', '/api/v2/my-account/reservations', {
      token: customerAuth,
      body: { eventId: event.id, lines: [{ typeId: event.ticketTypes[0]!.id, quantity: 2 }] },
    });
    const { result, writes } = await countWrites(() =>
      call('DELETE', `/api/v2/my-account/reservations/${held.body.data.id}`, { token: customerAuth }),
    );
    expect(result.status).toBe(200);
    expect(byKind(writes), describeWrites(writes)).toEqual({
      STOCK: 2,
      RESERVATION: 2,
      'RESERVATION#EVENT': 2,
      DUE: 2,
      NETWORK_HELD: 2,
    });
  });
});

/**
 * What an event's types write with their stock, each in its one transaction (2 units per item under 1 KB, and
 * 2 per index entry it moves): the event item (its GSI2 and, as a draft, GSI3 entries: 6), the type (its GSI1 entry: 4),
 * the history entry (2), and 2 per stock item a type of 2,000 holds (20, one per 100) or a total's move touches.
 */
describe("write units by AWS rules, of an event's types and their stock (in the type's one transaction)", () => {
  const typeBody = { name: 'Runner', price: 25, total: 2000 };
  const eventBody = (fields: Record<string, unknown> = {}) => ({
    title: `Units ${randomUUID()}`,
    start: '2399-06-01T09:00:00Z',
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    ...fields,
  });
  const stockUnits = (writes: DynamoWrites) =>
    writes.items.filter((write) => write.key.startsWith('STOCK#')).reduce((sum, write) => sum + write.units, 0);

  it('POST /events with one type of 2,000: its 20 stock items (40) in the creation, 93 with the ids (7), the count and the 16 statistics shards', async () => {
    const token = await adminToken(['events:write'], 77_002);
    const { result, writes } = await countWrites(() =>
      call('POST', '/api/v2/events', { token, body: eventBody({ ticketTypes: [typeBody] }) }),
    );
    expect(result.status).toBe(201);
    expect(stockUnits(writes), describeWrites(writes)).toBe(40);
    // 7 sequences (1 each), the event 6, the events' count 2, the type 4, 16 statistics shards 32, history 2.
    expect(writes.units, describeWrites(writes)).toBe(93);
  });

  it('POST /events/{id}/ticket-types of 2,000: the type, its 20 stock items, the event and its history (53); a total raised moves shard 0 (14), lowered the fullest shards (32)', async () => {
    const token = await adminToken(['events:write'], 77_002);
    const event = (await call('POST', '/api/v2/events', { token, body: eventBody() })).body.data as { id: number };
    const added = await countWrites(() =>
      call('POST', `/api/v2/events/${event.id}/ticket-types`, { token, body: typeBody }),
    );
    expect(added.result.status).toBe(201);
    expect(stockUnits(added.writes), describeWrites(added.writes)).toBe(40);
    // The id 1, the event 6, the type 4, history 2, stock 40.
    expect(added.writes.units, describeWrites(added.writes)).toBe(53);
    const typeId = added.result.body.data.id;
    const total = (value: number) =>
      countWrites(() =>
        call('PATCH', `/api/v2/events/${event.id}/ticket-types/${typeId}`, { token, body: { total: value } }),
      );
    const rise = await total(2100);
    expect(rise.result.status).toBe(200);
    expect(stockUnits(rise.writes), describeWrites(rise.writes)).toBe(2);
    expect(rise.writes.units, describeWrites(rise.writes)).toBe(14);
    // 1,100 fewer: shard 0's 200 and nine shards' 100, each conditional on holding it.
    const fall = await total(1000);
    expect(fall.result.status).toBe(200);
    expect(stockUnits(fall.writes), describeWrites(fall.writes)).toBe(20);
    expect(fall.writes.units, describeWrites(fall.writes)).toBe(32);
  });
});

describe('write units by AWS rules, of a box-office sale', () => {
  /**
   * 1. the order's id (from the container's block: 0), then one transaction: its stock shard `left` → `held` (2), the
   *    order `pending` (2, within 1 KB, in no index), the order's shards of the staff's event and all-events counts
   *    (4); then its entries, plain Puts: its list entry in the event's and every order's lists (3) and its status
   *    entry in the status-keyed lists (3); a walk-up sale has no customer's link to the event or order counts, nor a
   *    place in a customer's order lists (a sale to an account: 4, 2, and its entry in the customer's two lists 2 more);
   * 2. the ticket issued from the hold as the portal's paid ticket, in one transaction with the order `active`
   *    (shared/selling/use-cases/issue-order-tickets.ts): its id (from the block), the ticket with its creation's
   *    history entry on it, its barcode, statistics, the all-events totals' shard and purchase counts, and its shard
   *    `held` → `sold` (the type's `sold` there, never on its item: 26; its list entries, other blocks and search
   *    entries are the stream consumer's, after), the order's record of it (`issuedTickets`, conditional on the order still
   *    issuing) and its move `active` with its ticket id in one write (2) and the two counts (4), then its status
   *    entry moved (5, a plain Put: a delete and a put on GSI4 and on GSI6; its list entry untouched).
   */
  const sellOne = async (sale: { customerId?: number } = {}) => {
    const event = await seedEvent({ published: true, questions: [] });
    const staff = await adminToken(['orders:sell'], 77_003);
    await freshIdBlock('ORDER');
    await freshIdBlock('TICKET');
    return countWrites(() =>
      call('POST', '/api/v2/orders', {
        token: staff,
        body: {
          ...sale,
          eventId: event.id,
          lines: [{ typeId: event.ticketTypes[0]!.id, quantity: 1 }],
          payment: { method: 'cash' },
          buyer: { emailAddress: 'desk-buyer@test.local' },
          attendees: [{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }],
        },
      }),
    );
  };

  it('POST /orders of one ticket to a walk-up: the order and its hold (8) and its entries (6), the ticket issued from it (26) with the order recorded and active in the same transaction (6) and its status entry moved (5), its invoice with its number (4)', async () => {
    const { result, writes } = await sellOne();
    expect(result.status, result.raw).toBe(201);
    const order = (await storedItem(keys.order(Number(result.body.data.id)))) as Item;
    expect(itemSize(order)).toBeLessThan(1024);
    expect(byKind(writes), describeWrites(writes)).toEqual({
      STOCK: 4,
      ORDER: 4,
      ORDER_LISTS: 3,
      ORDER_STATUS: 8,
      COUNT: 8,
      TICKET: 6,
      UNIQUE: 2,
      STATS: 2,
      POS: 2,
      BOUGHT: 12,
      // Its invoice (within 1 KB, put in the numbering's transaction) and its series' counter, numbered alone (4).
      'DOCUMENT#INVOICE': 2,
      INVOICE_NUMBERS: 2,
    });
    // 57 when the ticket's creation was a history entry of its own (the record keeps it: no HISTORY), 64 when the order
    // item was in GSI4 and GSI6 itself and its list entry in the sale's transaction.
    expect(writes.units).toBe(55);
    // Then the stream's consumer, plain writes: the ticket's three list entries (the item and each index entry: 4, 3, 4),
    // its four blocks (the event's, its team's and span, the all-events list's; a walk-up has no customer's) and its
    // search tokens, ada, lovelace and its barcode's words (a random barcode may hold `-` or `_`, which split it), 2
    // units each, and their list in the ticket's partition (1).
    const ticketId = Number(Object.values(order.issuedTickets as Record<string, number>)[0]);
    const ticket = await readTicketRecord(ticketId);
    const barcodeTokens = wordsOf(ticket!.barcode).filter((word) => word.length >= MIN_SEARCH_WORD).length;
    const consumer = await consumerWrites([ticketId]);
    expect(byKind(consumer), describeWrites(consumer)).toEqual({
      LIST: 4,
      'LIST#EVENT': 3,
      'LIST#PURCHASE': 4,
      POS: 4,
      SEARCH: 2 * (2 + barcodeTokens) + 1,
    });
    // The staff's counts: twice (created, then active) the order's shard of its event's count and of its group's.
    const orderId = Number(result.body.data.id);
    const eventId = Number(order.eventId);
    const shard = orderId % ORDER_COUNT_SHARDS;
    const counted = writes.items
      .filter((write) => write.key.endsWith(' COUNT'))
      .map((write) => write.key.split(' ')[0]);
    expect(counted.sort()).toEqual(
      [
        `ALL_ORDER_COUNTS#${eventId % ORDER_COUNT_GROUPS}#${shard}`,
        `ALL_ORDER_COUNTS#${eventId % ORDER_COUNT_GROUPS}#${shard}`,
        `EVENT_ORDER_COUNTS#${eventId}#${shard}`,
        `EVENT_ORDER_COUNTS#${eventId}#${shard}`,
      ].sort(),
    );
  });

  it("POST /orders to a customer's account adds the customer's link to the event (4), order counts (2) and its order's places in the customer's lists (2)", async () => {
    const customer = await newCustomer();
    const { result, writes } = await sellOne({ customerId: customer.id });
    expect(result.status, result.raw).toBe(201);
    // The customer's link to the event is keyed `EVENT#<eventId:10>` under CUSTOMER#<id>.
    const kinds = byKind(writes);
    const link = Object.keys(kinds).find((kind) => kind.startsWith('EVENT#'));
    expect(
      { LINK: kinds[link!], ORDER_COUNTS: kinds.ORDER_COUNTS, ORDER_LISTS: kinds.ORDER_LISTS },
      describeWrites(writes),
    ).toEqual({ LINK: 4, ORDER_COUNTS: 2, ORDER_LISTS: 5 });
  });
});

describe('write units by AWS rules, of a paid order through the portal', () => {
  const { keys: stripeKeys, relay } = useStripeStandIn();

  /** The buyer's hold of two, the checkout of both, the payment as Stripe.js confirms it relayed to the webhook, the issue. */
  async function holdCheckOutAndPay(eventId: number, typeId: number, customerId: number, email: string) {
    const token = await customerToken(customerId, { email });
    const reservations = '/api/v2/my-account/reservations';
    const held = await call('POST', reservations, { token, body: { eventId, lines: [{ typeId, quantity: 2 }] } });
    expect(held.status, held.raw).toBe(201);
    const attendees = [0, 1].map((n) => ({
      firstName: `Grace${n}`,
      lastName: 'Hopper',
      email: `grace${n}@example.com`,
    }));
    const checkout = await call('POST', `${reservations}/${held.body.data.id}/checkout`, {
      token,
      body: { attendees },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(checkout.status, checkout.raw).toBe(201);
    const { order, payment } = checkout.body.data;
    const intent = { id: payment.clientSecret.split('_secret_')[0]!, clientSecret: payment.clientSecret };
    await standInControl(stripeKeys, 'POST', `payment_intents/${intent.id}/webhooks`, { url: relay.url });
    await payAsBrowser(stripeKeys, intent);
    // The consumer behind the webhook issues the tickets, then the stream's consumer writes their search entries: their
    // writes are the paid order's too.
    const issued = await claimedThenIssued(order.id);
    await listsCaughtUp(issued.ticketIds);
    return Number(order.id);
  }

  /**
   * The order's side of a paid order of two, for its whole life: the order item, in no index, created in the
   * checkout's transaction with its PaymentIntent id, moved `pending` when paid and `active` in the transaction that
   * issues both tickets (2 each: 6); after each of the three, as plain Puts, its status entry (`ORDER_STATUS`: put in
   * GSI4 and GSI6, 3, then moved twice, a delete and a put on each, 5 + 5) and once its list entry in the four lists
   * that never move with its status (`ORDER_LISTS`, 5); its attendees' own item (2), the customer's link to the event
   * (4) and order counts (2); and the staff's two order counts with each of the three moves (12). 26 + 10 on the order
   * when the order item was in GSI4 and GSI6 and its list entry in the checkout's transaction; 50 when the order item
   * held all six indexes (README "Cost per request").
   */
  const ORDER_SIDE = {
    ORDER: 6,
    ORDER_STATUS: 13,
    ORDER_LISTS: 5,
    ATTENDEES: 2,
    LINK: 4,
    ORDER_COUNTS: 2,
    COUNT: 12,
  };
  /**
   * The whole paid order today but its search entries; the target is 150, with the tickets' own writes and the hold
   * (shared/lists/README.md "A paid order's write units"). Its tickets' list entries and positions are the stream
   * consumer's plain writes (24 and 6: 48 and 12 when they were in the issuing transaction), and so are its search
   * entries, 2 units per token and 1 per ticket for its token list (14 for the test's usual 6; the random barcodes' words
   * vary it): 150 in all, 154 when each ticket's creation was a history entry of its own (2 a ticket: its record keeps
   * it now), 166 when the order item was in the status-keyed indexes and its list entry in the checkout's
   * transaction, 162 then before the invoice, 166 when an entry was 3 units (in its ticket's partition, on GSI1 and
   * GSI2), 170 when the checkout moved the hold's due entry (a delete and a put in its transaction), 200 when the list
   * entries and positions were in the issuing transaction, 218 with the search entries too. 4 of them are its invoice (2,
   * within 1 KB) and the seller's invoice counter (2), which a batch of the issuing consumer writes once for all its
   * orders (shared/README.md "Invoices": 2 + 2/n per order).
   */
  const PAID_ORDER_UNITS = 136;
  /** The search entries of the test's usual 6 tokens (2 each) and the two tickets' token lists (1 each). */
  const USUAL_SEARCH_UNITS = 14;
  /** The target (issue 64's on-sale scale): a paid order of two with the usual search entries. */
  const TARGET_UNITS = 150;
  /** The hold's due entry: put before the hold (1), left where it is by the checkout, deleted by the paid move (2). */
  const DUE_UNITS = 3;
  /** The stream consumer's part of it but the search entries: each ticket's three entries (4, 3 and 5) and six blocks. */
  const CONSUMER_SIDE = { LIST: 8, 'LIST#EVENT': 6, 'LIST#PURCHASE': 10, POS: 6 };

  it(`a paid order of two tickets through the portal: hold, checkout, payment, issue, invoice, search entries: the order's side ${Object.values(ORDER_SIDE).reduce((a, b) => a + b)} of ${PAID_ORDER_UNITS}, plus 2 a search token and 1 a ticket (${PAID_ORDER_UNITS + USUAL_SEARCH_UNITS} with the test's 6, the target ${TARGET_UNITS}); each ticket's record keeps its creation and stays within 1 KB with a gate scan's record`, async () => {
    const event = await seedEvent({
      published: true,
      questions: [],
      // Taxed, with a booking fee and its tax: the order's amounts and each ticket's tax and fee are stored.
      bookingFee: { perTicket: 1.25, percent: 2.5 },
      feeTax: { name: 'VAT', rate: 21, inclusive: false },
      ticketTypes: [{ name: 'Runner', price: 10, total: 50, tax: { name: 'VAT', rate: 21, inclusive: true } }],
    });
    const customer = await newCustomer();
    for (const sequence of ['RESERVATION', 'ORDER', 'TICKET']) await freshIdBlock(sequence);
    // The two tickets' ids share a run of SHARD_RUN, as 7 in 8 orders of two do, so their counters move once.
    let taken = await allocateIds('TICKET');
    while (taken % SHARD_RUN === SHARD_RUN - 2) taken = await allocateIds('TICKET');
    const { result: orderId, writes } = await countWrites(() =>
      holdCheckOutAndPay(event.id, event.ticketTypes[0]!.id, customer.id, customer.email),
    );
    expect((await getOrder(orderId))!.status).toBe('active');
    const orderItem = (await storedItem(keys.order(orderId))) as Item;
    console.info(`A priced paid order's item: ${itemSize(orderItem)} bytes`);
    expect(itemSize(orderItem)).toBeLessThan(1024);
    const invoice = (await storedItem(keys.orderDocument(orderId, keys.documentNames.invoice))) as Item;
    console.info(`A priced paid order's invoice: ${itemSize(invoice)} bytes`);
    expect(itemSize(invoice)).toBeLessThan(1024);
    // The customer's link to the event is keyed `EVENT#<eventId:10>` under CUSTOMER#<id>.
    const kinds = Object.fromEntries(
      Object.entries(byKind(writes)).map(([kind, units]) => [kind.startsWith('EVENT#') ? 'LINK' : kind, units]),
    );
    console.info(`A paid order of two tickets: ${writes.units} units by kind`, kinds);
    const orderSide = Object.fromEntries(Object.keys(ORDER_SIDE).map((kind) => [kind, kinds[kind]]));
    expect(orderSide, describeWrites(writes)).toEqual(ORDER_SIDE);
    expect(kinds.DUE, describeWrites(writes)).toBe(DUE_UNITS);
    // The rest varies only with the barcodes' search words (2 units each, written by the stream's consumer, and each
    // ticket's token list 1).
    expect(writes.units - kinds.SEARCH!).toBe(PAID_ORDER_UNITS);
    expect(writes.units - kinds.SEARCH! + USUAL_SEARCH_UNITS).toBeLessThanOrEqual(TARGET_UNITS);
    // A creation writes no history entry of its own: each record keeps it, and still takes a gate scan's record within
    // 1 KB (a check-in's 10 units, not 20: the record and its two update-time index entries are each priced per KB).
    expect(kinds.HISTORY, describeWrites(writes)).toBeUndefined();
    await issuedTicketsKeepTheirCreation(orderId, `customer ${customer.id}`);
    expect((kinds.SEARCH! - 2) % 2).toBe(0);
    // The consumer's: the list entries, the blocks and the search entries, never in a transaction (the all-events
    // totals' shard, `POS#count`, is the issuing transaction's: 2).
    const consumerKinds = writes.items.filter(
      (write) => !write.transactional && /^SEARCH#| SEARCH$| (LIST|POS#(?!count))/.test(write.key),
    );
    const consumerSide = byKind({ ...writes, items: consumerKinds });
    expect({ ...consumerSide, SEARCH: undefined }, describeWrites(writes)).toEqual({
      ...CONSUMER_SIDE,
      SEARCH: undefined,
    });
    expect(kinds.POS! - CONSUMER_SIDE.POS).toBe(2);
    expect(
      writes.items.filter((write) => /^SEARCH#| SEARCH$| LIST/.test(write.key)).every((write) => !write.transactional),
    ).toBe(true);
    // The order's entries are plain writes, after its transactions.
    expect(
      writes.items.filter((write) => / ORDER_(LISTS|STATUS)$/.test(write.key)).every((write) => !write.transactional),
    ).toBe(true);
    await orderEntriesStayCaughtUp(orderId, event.id);
  });

  /** Each ticket of the order keeps its creation's entry (by `actor`, the paying customer) and leaves a check-in room. */
  async function issuedTicketsKeepTheirCreation(orderId: number, actor: string) {
    const order = (await getOrder(orderId))!;
    for (const ticketId of Object.values(order.issuedTickets ?? {})) {
      const stored = (await storedItem(keys.ticket(ticketId))) as Item;
      console.info(`A priced paid order's ticket: ${itemSize(stored)} bytes`);
      expect(itemSize(stored) + GATE_SCAN_RECORD_BYTES).toBeLessThan(1024);
      expect((await readTicketRecord(ticketId))!.creation).toMatchObject({ actor, action: 'create' });
    }
  }

  /**
   * The stream's consumer for the order's records, after its writers: nothing to write, however often a record is
   * delivered or replayed. A writer that stopped before its entry's write (here: the entry left `pending`, as the
   * webhook's writer put it) lists the order in neither status list meanwhile (a status list judges each order as read)
   * and finds it moved by the consumer, as the order is now.
   */
  async function orderEntriesStayCaughtUp(orderId: number, eventId: number) {
    const replayed = await countWrites(() => ordersCaughtUp([orderId, orderId]));
    expect(replayed.writes.units, describeWrites(replayed.writes)).toBe(0);
    const order = (await getOrder(orderId))!;
    const lagging = orderStatusEntryItem({ ...order, status: 'pending', statusMoves: order.statusMoves! - 1 });
    await db.send(new PutCommand({ TableName: tableName(), Item: lagging }));
    const listed = async (status: string) =>
      (await call('GET', `/api/v2/orders?eventId=${eventId}&status=${status}`, { token: staff })).body.data.map(
        (order: { id: string }) => Number(order.id),
      );
    const staff = await adminToken(['orders:read'], 77_004);
    expect(await listed('active')).not.toContain(orderId);
    expect(await listed('pending')).not.toContain(orderId);
    // The consumer's own batch: a record of the order item, as WEBHOOK_CHANGE_FILTER passes it.
    const record = {
      eventName: 'MODIFY' as const,
      dynamodb: { Keys: { PK: { S: `ORDER#${orderId}` }, SK: { S: 'ORDER' } }, SequenceNumber: '1' },
    };
    const caughtUp = await countWrites(() => runAs('ticket-changes', () => ticketChanges({ Records: [record] })));
    expect(caughtUp.result).toEqual({ batchItemFailures: [] });
    expect(byKind(caughtUp.writes), describeWrites(caughtUp.writes)).toEqual({ ORDER_STATUS: 5 });
    expect(await listed('active')).toContain(orderId);
    expect(await listed('pending')).not.toContain(orderId);
    expect((await countWrites(() => ordersCaughtUp([orderId]))).writes.units).toBe(0);
  }
});
