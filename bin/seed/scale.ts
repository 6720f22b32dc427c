import { BatchWriteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { scanPut } from '#shared/data/check-ins';
import { db, storedAs, tableName } from '#shared/data/client';
import { allocateIds } from '#shared/data/counters';
import { insertCustomer } from '#shared/data/customers';
import { createEvent, getEvent, listTicketTypes } from '#shared/data/events';
import { keys } from '#shared/data/keys';
import { keyCondition } from '#shared/data/key-conditions';
import { commitNewOrder } from '#shared/data/orders';
import { commitTicketChanges, type ExtraAction, type TicketChange } from '#shared/lists/writes';
import { listWaveTimes } from '#shared/data/wave-times';
import { applyScan } from '#shared/domain/check-in';
import type { Event, Team, TicketType } from '#shared/domain/event';
import { newTicketRecord } from '#shared/domain/new-ticket';
import type { Order } from '#shared/domain/order';
import { countedEvents, isEligible, PROCESS_STATE, type TicketRecord } from '#shared/domain/ticket';
import { historyEntry, type Actor, type TicketAction } from '#shared/domain/ticket-history';
import { capture, WriteSet } from './capture.ts';

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
/** BatchWriteItem requests in flight (25 items each). */
const PARALLEL_WRITES = 8;
const SCANNER: Actor = { kind: 'admin', id: 1 };
const FIRST = [
  'Ada',
  'Bea',
  'Cal',
  'Dev',
  'Eli',
  'Fay',
  'Gus',
  'Hana',
  'Ivo',
  'Jun',
  'Kai',
  'Lea',
  'Mo',
  'Nia',
  'Oli',
  'Pia',
  'Quin',
  'Rui',
];
const LAST = [
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Tanaka',
  'Silva',
  'Novak',
  'Haddad',
  'Kowalski',
  'Reyes',
  'Byrne',
  'Ortiz',
  'Ng',
];

export interface ScaleSeedOptions {
  tickets: number;
  /** Seed into this event (its types need room); default a new event. */
  eventId?: number;
  onProgress?: (written: number) => void;
}

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

async function newEvents(tickets: number) {
  const access = await createEvent({
    title: `Seeded after-party ${Date.now().toString(36)}`,
    timezone: 'Europe/London',
    startsAt: '2027-05-02T19:00:00Z',
    ticketTypes: [{ name: 'Party', price: 15, total: Math.max(10, tickets) }],
  });
  const room = Math.max(100, tickets);
  return createEvent({
    title: `Seeded city race ${Date.now().toString(36)}`,
    timezone: 'Europe/London',
    startsAt: '2027-05-02T08:00:00Z',
    questions: [
      { text: 'Emergency contact', required: true },
      {
        text: 'T-shirt size',
        options: [
          { text: 'S', sku: 'TS-S' },
          { text: 'M', sku: 'TS-M' },
          { text: 'L', sku: 'TS-L' },
        ],
      },
    ],
    ticketTypes: [
      { name: 'Marathon', price: 65, total: room },
      { name: 'Half marathon', price: 40, total: room },
      { name: '10K', price: 30, total: room },
      { name: 'Race + after-party', price: 80, total: room, grants: [access.id] },
    ],
    teams: ['Thames Striders', 'Club Fit', 'Charity runners', 'Harriers', 'Night Owls', 'Corporate'].map((name) => ({
      name,
    })),
    waveTimes: [
      { name: 'Elite', startTime: '2027-05-02T08:00:00Z', capacity: room },
      { name: 'Wave A', startTime: '2027-05-02T08:30:00Z', capacity: room },
    ],
  });
}

async function listTeams(eventId: number): Promise<Team[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.eventItems(eventId), { beginsWith: keys.teamPrefix }),
      Limit: 200,
    }),
  );
  return Items.map((item) => storedAs<Team>(item));
}

async function targetEvent(
  options: ScaleSeedOptions,
): Promise<{ event: Event; types: TicketType[]; teams: Team[]; waves: number[] }> {
  if (options.eventId === undefined) {
    const created = await newEvents(options.tickets);
    return {
      event: created,
      types: created.ticketTypes,
      teams: created.teams,
      waves: created.waveTimes.map((wave) => wave.id),
    };
  }
  const [event, types, teams, waves] = await Promise.all([
    getEvent(options.eventId),
    listTicketTypes(options.eventId),
    listTeams(options.eventId),
    listWaveTimes(options.eventId),
  ]);
  const room = types.reduce((sum, type) => sum + type.total - type.sold, 0);
  // Conditions are dropped while seeding, so capacity is checked here (the types share the tickets evenly).
  const perType = Math.ceil(options.tickets / Math.max(1, types.length));
  if (!types.length || types.some((type) => type.total - type.sold < perType)) {
    throw new Error(
      `Event ${options.eventId}: its ${types.length} ticket types have room for ${room} tickets, ${perType} needed in each.`,
    );
  }
  return { event, types, teams, waves: waves.map((wave) => wave.id) };
}

function attendee(n: number, event: Event) {
  const first = FIRST[n % FIRST.length]!;
  const last = LAST[(n * 7) % LAST.length]!;
  return {
    partyMember: first,
    partyMemberLastName: last,
    emailAddress: `${first}.${last}.${n}@example.test`.toLowerCase(),
    partyMemberBirthYear: 1960 + (n % 45),
    partyMemberBirthMonth: 1 + (n % 12),
    partyMemberBirthDay: 1 + (n % 28),
    attendeeQuestions: event.questions.map((question) =>
      question.options.length
        ? {
            questionId: question.id,
            answerId: question.options[n % question.options.length]!.id,
            displayText: question.options[n % question.options.length]!.text,
          }
        : { questionId: question.id, answerText: `+44 7700 ${String(900000 + (n % 100000))}` },
    ),
    purchaserContact: { firstName: first, lastName: last, email: `buyer.${n}@example.test` },
  };
}

/** Sends puts and deletes with BatchWriteItem, PARALLEL_WRITES requests at a time, retrying UnprocessedItems with backoff. */
export async function batchWrite(requests: Record<string, unknown>[]): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < requests.length; i += 25) batches.push(requests.slice(i, i + 25));
  const send = async (batch: Record<string, unknown>[]) => {
    let pending = batch;
    for (let attempt = 0; pending.length; attempt++) {
      if (attempt > 12) throw new Error(`seed: ${pending.length} items still unprocessed after ${attempt} attempts`);
      if (attempt)
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2000, 25 * 2 ** attempt)));
      const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (UnprocessedItems?.[tableName()] ?? []) as Record<string, unknown>[];
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL_WRITES, batches.length) }, async () => {
      while (next < batches.length) await send(batches[next++]!);
    }),
  );
}

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
  const bump = (map: Record<string, number>, key: number) => (map[String(key)] = (map[String(key)] ?? 0) + 1);
  // Ids in blocks: one sequence update each instead of one per ticket, order and customer.
  const firstId = await allocateIds(TICKET_SEQUENCE, Math.max(1, total));
  const base = Date.parse('2026-06-01T00:00:00Z');
  const customers = new Map<number, { id: number; tickets: number; orders: number }>();
  const set = new WriteSet();
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
        let grand = 0;
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
          grand += type.price;
        }
        if (!group.customerId) continue;
        const customer = customers.get(group.customerId) ?? { id: group.customerId, tickets: 0, orders: 0 };
        customer.tickets += ids.length;
        customer.orders += 1;
        if (!customers.has(customer.id)) {
          customers.set(customer.id, customer);
          await insertCustomer(
            {
              id: customer.id,
              cognitoSub: `seed-${customer.id}`,
              cognitoUsername: `seed-${customer.id}`,
              emailAddress: `seed-customer-${customer.id}@example.test`,
              name: `Seed Customer ${customer.id}`,
              accountNumber: null,
              primary: null,
              billing: null,
              useInternationalShippingAddress: false,
              useInternationalBillingAddress: false,
              emailVerified: true,
              pendingEmailAddress: null,
              created: at,
              updated: at,
            },
            // Its verification token is dropped below: seeded customers are verified.
            { tokenHash: `seed-${customer.id}`, ttlSeconds: 60 },
          );
        }
        const order: Order = {
          id: group.orderId!,
          customerId: group.customerId,
          eventId: event.id,
          created: at,
          purchasedDate: at,
          status: 'active',
          emailAddress: `seed-customer-${group.customerId}@example.test`,
          purchaser: `Seed Customer ${group.customerId}`,
          affiliate: null,
          grandTotal: Math.round(grand * 100) / 100,
          ticketIds: ids,
          typeIds: [...typeIds],
          waveTimeId: waves[0] ?? null,
          teamId: null,
          transactions: [{ amount: grand, processor: 'stripe', reference: `ch_seed_${group.orderId}`, time: at }],
          answers: [],
        };
        await commitNewOrder(order, event);
      }
    });
    const { puts, deletes } = set.drainItems();
    // Nothing captured means the transactions went to the table instead (a renamed command): stop rather than double-count.
    if (!puts.length)
      throw new Error('seed: no transaction was captured; check capture.ts against the SDK command names.');
    await batchWrite([
      ...puts.filter((item) => item.entity !== 'EmailVerification').map((Item) => ({ PutRequest: { Item } })),
      ...deletes.map((Key) => ({ DeleteRequest: { Key } })),
    ]);
    written += size;
    options.onProgress?.(written);
  }

  // The counters last, once: a crash before this leaves tickets without counts (re-seed a new event).
  // A pool, not all at once: a big seed has two counter items per customer (order counts, event link).
  const updates = set.counterUpdates(tableName());
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
    record = { ...record, version: first.history.version };
    for (const [after, by, action, extra] of changes) {
      const next = { ...after, version: record.version };
      const history = historyEntry(record, next, { actor: by, action, at });
      await commitTicketChanges([{ before: record, after: next, history }], extra);
      record = { ...next, version: history.version };
    }
    if (!record.deleted) {
      bump(counts.byState, record.processState);
      bump(counts.byTeam, record.teamId ?? 0);
      bump(counts.byType, record.typeId);
    }
    if (isEligible(record)) counts.sold++;
    const counted = countedEvents(record);
    if (counted.includes(record.eventId)) counts.checkedIn++;
    if (counted.some((eventId) => eventId !== record.eventId)) counts.accessCheckedIn++;
  }
}
