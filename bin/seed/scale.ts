import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { scanPut } from '#shared/gate/data/check-ins';
import { db, tableName } from '#shared/data/client';
import { allocateIds } from '#shared/data/counters';
import { commitNewOrder } from '#shared/selling/data/orders';
import { bulkSoldUpdate } from '#shared/selling/data/stock';
import { addSums, NO_SALES, type SaleSums, ticketSums } from '#shared/selling/domain/sale-prices';
import { commitTicketChanges, consumerWritesOf, type ExtraAction, type TicketChange } from '#shared/lists/writes';
import { applyScan } from '#shared/gate/domain/check-in';
import { newTicketRecord } from '#shared/tickets/domain/new-ticket';
import { newOrder, type Order } from '#shared/selling/domain/order';
import { orderListEntryItem, orderStatusEntryItem } from '#shared/selling/data/order-list-entries';
import { countedEvents, isEligible, PROCESS_STATE, type TicketRecord } from '#shared/tickets/domain/ticket';
import { creationOf, historyEntry, type Actor, type TicketAction } from '#shared/tickets/domain/ticket-history';
import { batchWrite, PARALLEL_WRITES } from './batch-write.ts';
import { capture, WriteSet } from './capture.ts';
import { insertSeededCustomer } from './customers.ts';
import { attendee, type ScaleSeedOptions, targetEvent } from './scale-event.ts';
import { addAmounts } from '#shared/money';
import { saleCurrency } from '#shared/events/domain/event';

/**
 * `npm run seed` at scale: one event's tickets (teams, types, an access package into a
 * second event, every process state, bibs, check-ins and access scans, orders and their
 * customers) written with parallel BatchWriteItem. Each ticket goes through the write
 * path's own commit (`commitTicketChanges`: its create, then its check-in or state change)
 * with the transaction captured (capture.ts), so the items are exactly the API's; the
 * counters are summed and written once at the end, added to what the event already holds.
 */
const TICKET_SEQUENCE = 'TICKET';
/** Tickets generated and written per round (their items and orders). */
const ROUND = 1000;
const SCANNER: Actor = { kind: 'admin', id: 1 };

/** What was seeded, and the counts the API must now answer for it. */
export interface ScaleSeed {
  eventId: number;
  accessEventId: number | null;
  tickets: number;
  ticketIds: { first: number; last: number };
  typeIds: number[];
  teamIds: number[];
  customers: { id: number; tickets: number; orders: number }[];
  /** Non-deleted tickets per processState, team (0 = none), type and granted event; eligible (sold) and checked in. */
  counts: {
    byState: Record<string, number>;
    byTeam: Record<string, number>;
    byType: Record<string, number>;
    sold: number;
    checkedIn: number;
    accessCheckedIn: number;
  };
}

/** A stable spread of n over 0..99 (Knuth's multiplicative hash). */
const hash = (n: number) => (Math.imul(n + 1, 2654435761) >>> 0) % 100;

export async function seedScale(options: ScaleSeedOptions): Promise<ScaleSeed> {
  const { event, types, teams, waves } = await targetEvent(options);
  const total = options.tickets;
  const accessType = types.find((type) => type.grants.length);
  const plainTypes = types.filter((type) => !type.grants.length);
  const counts: ScaleSeed['counts'] = {
    byState: {},
    byTeam: {},
    byType: {},
    sold: 0,
    checkedIn: 0,
    accessCheckedIn: 0,
  };
  const soldByType = new Map<number, { quantity: number; sums: SaleSums }>();
  const bump = (map: Record<string, number>, key: number) => (map[String(key)] = (map[String(key)] ?? 0) + 1);
  // Ids in blocks: one sequence update each instead of one per ticket, order and customer.
  const firstId = await allocateIds(TICKET_SEQUENCE, Math.max(1, total));
  const base = Date.parse('2026-06-01T00:00:00Z');
  const customers = new Map<number, { id: number; tickets: number; orders: number }>();
  const set = new WriteSet();
  // What the table stream's consumer writes after each ticket's last change (not in its transactions, so not captured):
  // its list and search entries here, its blocks' moves summed with the captured counters.
  const consumerItems: Record<string, unknown>[] = [];
  let written = 0;

  for (let start = 0; start < total; start += ROUND) {
    const size = Math.min(ROUND, total - start);
    // Orders of 1-4 consecutive tickets; every fifth group is a staff sale (no order, no customer).
    const groups: { from: number; to: number; order: boolean }[] = [];
    for (let n = start; n < start + size; ) {
      const to = Math.min(start + size, n + 1 + (hash(n) % 4));
      groups.push({ from: n, to, order: groups.length % 5 !== 4 });
      n = to;
    }
    const orderGroups = groups.filter((group) => group.order);
    const [firstOrder, firstCustomer] = await Promise.all([
      allocateIds('ORDER', Math.max(1, orderGroups.length)),
      allocateIds('CUSTOMER', Math.max(1, orderGroups.length)),
    ]);
    await capture(set, async () => {
      let customerId = firstCustomer - 1;
      for (const [g, group] of orderGroups.entries()) {
        // Most customers buy once; every fourth order is a returning customer's.
        if (g % 4 !== 3 || customerId < firstCustomer) customerId++;
        Object.assign(group, { orderId: firstOrder + g, customerId });
      }
      for (const group of groups as ((typeof groups)[number] & { orderId?: number; customerId?: number })[]) {
        const at = new Date(base + group.from * 60_000).toISOString();
        const ids: number[] = [];
        const typeIds = new Set<number>();
        const prices: number[] = [];
        for (let n = group.from; n < group.to; n++) {
          const h = hash(n);
          const type = accessType && h % 20 === 7 ? accessType : (plainTypes[n % plainTypes.length] ?? types[0]!);
          const id = firstId + n;
          const record: TicketRecord = {
            ...newTicketRecord(id, type, at),
            ...attendee(n, event),
            price: type.price,
            // A third without a team; the rest spread over every team.
            teamId: teams.length && n % 3 ? teams[Math.floor(n / 3) % teams.length]!.id : null,
            processState: h < 3 ? PROCESS_STATE.pending : PROCESS_STATE.active,
            bibNumber: h % 5 ? String(id) : null,
            ...(group.customerId
              ? {
                  orderId: group.orderId!,
                  customerId: group.customerId,
                  waveTimeId: waves[n % Math.max(1, waves.length)] ?? null,
                }
              : {}),
          };
          await commit(record, group.customerId ? { kind: 'customer', id: group.customerId } : { kind: 'system' });
          ids.push(id);
          typeIds.add(type.id);
          prices.push(type.price);
        }
        if (!group.customerId) continue;
        const grand = addAmounts(prices, saleCurrency(event));
        const customer = customers.get(group.customerId) ?? { id: group.customerId, tickets: 0, orders: 0 };
        customer.tickets += ids.length;
        customer.orders += 1;
        if (!customers.has(customer.id)) {
          customers.set(customer.id, customer);
          await insertSeededCustomer(
            {
              id: customer.id,
              source: 'seed',
              emailAddress: `seed-customer-${customer.id}@example.test`,
              name: `Seed Customer ${customer.id}`,
            },
            at,
          );
        }
        // Built as every sale builds its order (newOrder), written whole: the bulk writer issues its tickets itself.
        const order: Order = {
          ...newOrder({
            id: group.orderId!,
            customerId: group.customerId,
            eventId: event.id,
            at,
            status: 'active',
            emailAddress: `seed-customer-${group.customerId}@example.test`,
            purchaser: `Seed Customer ${group.customerId}`,
            lines: [...typeIds].map((typeId) => ({ typeId, waveTimeId: waves[0] ?? null })),
            grandTotal: grand,
            transactions: [
              { amount: grand, processor: 'card_present', reference: `ch_seed_${group.orderId}`, time: at },
            ],
          }),
          ticketIds: ids,
        };
        await commitNewOrder(order, event);
        // Its entries as its writer would put them once the transaction answered: the order is not in the table
        // before the batch below, so the caught-up step above found nothing to follow.
        consumerItems.push(orderListEntryItem(order), orderStatusEntryItem(order));
      }
    });
    const { puts, deletes } = set.drainItems();
    // Nothing captured means the transactions went to the table instead (a renamed command): stop rather than double-count.
    if (!puts.length)
      throw new Error('seed: no transaction was captured; check capture.ts against the SDK command names.');
    await batchWrite([
      ...[...puts, ...consumerItems.splice(0)].map((Item) => ({ PutRequest: { Item } })),
      ...deletes.map((Key) => ({ DeleteRequest: { Key } })),
    ]);
    written += size;
    options.onProgress?.(written);
  }

  // The counters last, once: a crash before this leaves tickets without counts (re-seed a new event).
  // A pool, not all at once: a big seed has two counter items per customer (order counts, event link).
  // The types' stock (`left` → `sold`, with the tickets' sales sums) likewise: the commits above carry no stock move.
  const updates = [
    ...set.counterUpdates(tableName()),
    ...[...soldByType].map(([id, { quantity, sums }]) => bulkSoldUpdate(id, quantity, sums)),
  ];
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL_WRITES }, async () => {
      while (next < updates.length) await db.send(new UpdateCommand(updates[next++] as never));
    }),
  );
  return {
    eventId: event.id,
    accessEventId: accessType?.grants[0] ?? null,
    tickets: total,
    ticketIds: { first: firstId, last: firstId + total - 1 },
    typeIds: types.map((type) => type.id),
    teamIds: teams.map((team) => team.id),
    customers: [...customers.values()],
    counts,
  };

  /** The ticket's create, then (by its hash) its check-in, access scan or cancellation: each through the write path's commit. */
  async function commit(created: TicketRecord, actor: Actor): Promise<void> {
    const changes: [TicketRecord, Actor, TicketAction, ExtraAction[]][] = [];
    let record = created;
    const h = hash(created.id - firstId);
    const at = new Date(Date.parse(created.created) + 3_600_000 + h * 1000).toISOString();
    const scan = (eventId: number) => ({ eventId, scannedTimestamp: at, adminId: (SCANNER as { id: number }).id });
    if (record.processState === PROCESS_STATE.active && h >= 3 && h < 8) {
      changes.push([{ ...record, processState: PROCESS_STATE.cancelled, updated: at }, SCANNER, 'states', []]);
    } else if (record.processState === PROCESS_STATE.active && h >= 40) {
      const accessEvent = record.accessEvents[0];
      const kind = accessEvent !== undefined && h % 2 ? 'access_package' : 'simple';
      const eventId = kind === 'simple' ? record.eventId : accessEvent!;
      changes.push([
        applyScan(record, kind, scan(eventId)),
        SCANNER,
        kind === 'simple' ? 'check_in' : 'access_scan',
        [scanPut(record.id, { ...scan(eventId), outcome: 'admitted' })],
      ]);
    }
    const first: TicketChange = {
      before: null,
      after: record,
      history: historyEntry(null, record, { actor, action: 'create', at: record.created }),
    };
    await commitTicketChanges([first]);
    // The record as stored: each change's `before` carries the creation its record keeps (ticket-changes.ts).
    const creation = creationOf(first.history);
    record = { ...record, version: first.history.version, creation };
    for (const [after, by, action, extra] of changes) {
      const next = { ...after, version: record.version };
      const history = historyEntry(record, next, { actor: by, action, at });
      await commitTicketChanges([{ before: record, after: next, history }], extra);
      record = { ...next, version: history.version, creation };
    }
    const consumer = consumerWritesOf([record]);
    consumerItems.push(...consumer.items);
    set.add(consumer.blockUpdates);
    if (!record.deleted) {
      bump(counts.byState, record.processState);
      bump(counts.byTeam, record.teamId ?? 0);
      bump(counts.byType, record.typeId);
    }
    if (isEligible(record)) counts.sold++;
    if (isEligible(record)) {
      const sold = soldByType.get(record.typeId) ?? { quantity: 0, sums: NO_SALES };
      soldByType.set(record.typeId, { quantity: sold.quantity + 1, sums: addSums(sold.sums, ticketSums(record)) });
    }
    const counted = countedEvents(record);
    if (counted.includes(record.eventId)) counts.checkedIn++;
    if (counted.some((eventId) => eventId !== record.eventId)) counts.accessCheckedIn++;
  }
}
