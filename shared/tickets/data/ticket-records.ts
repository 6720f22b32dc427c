import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../../domain/paging.ts';
import {
  attendeeAnswerFields,
  PROCESS_STATES,
  TRANSFER_STATES,
  UPGRADE_STATES,
  WITHDRAWN_STATES,
} from '../domain/ticket-codes.ts';
import type { Scan, TicketRecord } from '../domain/ticket.ts';
import * as z from '../../schema.ts';
import { batchGet, db, tableName } from '../../data/client.ts';
import { parseItem, storedSchema } from '../../data/stored-items.ts';
import { keys } from '../../data/keys.ts';
import { keyCondition } from '../../data/key-conditions.ts';
import { TicketCreationItem } from './ticket-history.ts';

/**
 * Ticket records: one item `TICKET#<id>` each holds the whole record (fields, states,
 * scans, claim, purchaser, the events its type grants), so a check-in needs one read.
 * The item is in the update-time sync's indexes only (every ticket, deleted ones too: the
 * sync of `GET /ticket` reports deletions), across events and per event. The lists find it through its small list
 * entries (ticket-list-entries.ts), which a change rewrites only when they move, so the
 * ~1 KB record is not rewritten into an index per list on every write.
 */
const ENTITY = 'Ticket';

/** Update-time index write shards: one busy minute of changes spreads over this many partitions; the sync merges them. */
export const TICKET_UPDATE_SHARDS = 8;

/** The record's fields that may be null. */
type NullableField = { [K in keyof TicketRecord]-?: null extends TicketRecord[K] ? K : never }[keyof TicketRecord];
/**
 * Each of them unset. The item stores only the ones that are set: a dozen nulls are about 150
 * bytes, and every write of the item (and each of its index copies) is priced per started KB,
 * which a checked-in ticket of an order would pass with them. The type requires every
 * nullable field here, so a new one cannot come back undefined.
 */
const UNSET = {
  teamId: null,
  bibNumber: null,
  chipNumber: null,
  externalMembershipId: null,
  emailAddress: null,
  partyMemberBirthMonth: null,
  partyMemberBirthDay: null,
  partyMemberBirthYear: null,
  partyMemberTitle: null,
  partyMemberCompany: null,
  orderId: null,
  customerId: null,
  waveTimeId: null,
  profilePhoto: null,
  transferredFrom: null,
  transferredTo: null,
  checkIn: null,
  claim: null,
  purchaserContact: null,
} satisfies Record<NullableField, null>;

const nullableInt = z.lazy(() => z.nullable(z.number()));
const nullableText = z.lazy(() => z.nullable(z.string()));
const ScanItem = storedSchema<Scan>()(
  z.lazy(() =>
    z.object({
      eventId: z.number(),
      scannedTimestamp: z.string(),
      adminId: z.number(),
      deviceId: z.optional(z.string()),
      scanId: z.optional(z.string()),
      uploadedAt: z.optional(z.string()),
    }),
  ),
);

/**
 * The record as stored (its nulls restored from UNSET first). Written out rather than derived from the answer's
 * schema (ticket-resource.ts), which a ticket write's bundle does not build; storedSchema holds it to the record's
 * type, which is derived from the answer's. Checked once per record read, about 4 times the cost of the copy it
 * replaced (a page of 100 records: 3 ms on a machine loaded 7-fold, well under its DynamoDB reads).
 */
const TicketItem = storedSchema<TicketRecord>()(
  z.lazy(() =>
    z.object({
      id: z.number(),
      eventId: z.number(),
      typeId: z.number(),
      orderId: nullableInt,
      customerId: nullableInt,
      waveTimeId: nullableInt,
      teamId: nullableInt,
      barcode: z.string(),
      bibNumber: nullableText,
      chipNumber: nullableText,
      externalMembershipId: nullableText,
      processState: z.literal(PROCESS_STATES),
      transferState: z.enum(TRANSFER_STATES),
      upgradeState: z.enum(UPGRADE_STATES),
      withdrawnState: z.enum(WITHDRAWN_STATES),
      deleted: z.literal([0, 1]),
      price: z.number(),
      taxAmount: z.number(),
      gratuityAmount: z.number(),
      paidUponCheckout: z.number(),
      partyMember: z.string(),
      partyMemberLastName: z.string(),
      emailAddress: nullableText,
      partyMemberBirthMonth: nullableInt,
      partyMemberBirthDay: nullableInt,
      partyMemberBirthYear: nullableInt,
      partyMemberTitle: nullableText,
      partyMemberCompany: nullableText,
      attendeeQuestions: z.array(z.object(attendeeAnswerFields())),
      profilePhoto: nullableText,
      transferredFrom: nullableInt,
      transferredTo: nullableInt,
      purchasedDate: z.string(),
      created: z.string(),
      updated: z.string(),
      accessEvents: z.array(z.number()),
      checkIn: z.nullable(ScanItem),
      accessScans: z.record(z.string(), ScanItem),
      claim: z.nullable(
        z.object({
          isAClaim: z.boolean(),
          isClaimed: z.boolean(),
          state: z.enum(['open', 'claimed', 'cancelled']),
          claimantEmail: nullableText,
          claimantUserId: nullableText,
          sentAt: nullableText,
          claimedAt: nullableText,
          claimedByCustomerId: nullableInt,
          // Beyond the answer's claim: the live token's hash (tickets/domain/claim.ts StoredClaim).
          tokenHash: z.optional(nullableText),
        }),
      ),
      refund: z.object({ status: z.enum(['none', 'requested', 'refunded']), amount: z.number() }),
      purchaserContact: z.nullable(
        z.object({ firstName: z.string(), lastName: z.string(), email: z.string(), phone: z.optional(z.string()) }),
      ),
      version: z.number(),
      bookingFee: z.optional(z.number()),
      discount: z.optional(z.number()),
      feeTax: z.optional(z.number()),
      creation: z.optional(TicketCreationItem),
    }),
  ),
);

export const ticketItem = (record: TicketRecord) => ({
  ...keys.ticket(record.id),
  ...keys.ticketUpdateIndexes(record.id % TICKET_UPDATE_SHARDS, record.updated, record.id),
  ...keys.eventUpdateIndexes(record.eventId, record.id % TICKET_UPDATE_SHARDS, record.updated, record.id),
  entity: ENTITY,
  ...Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)),
});

export function fromTicketItem(item: Record<string, unknown>): TicketRecord {
  return parseItem(TicketItem, { ...UNSET, ...item }, 'ticket');
}

/** The ticket an index item lists: an entry's `ticketId`, a whole ticket's `id`. */
export const listedTicketId = (item: Record<string, unknown>): number => Number(item.ticketId ?? item.id);

/**
 * The tickets of index items in their order: whole tickets (the sync's) as they are, list entries by one eventually consistent BatchGetItem of their
 * tickets (the index is eventually consistent too), leaving out a ticket deleted or gone
 * since its entry was read (entries are of live tickets only).
 */
export async function listedRecords(items: Record<string, unknown>[]): Promise<TicketRecord[]> {
  const entries = items.filter((item) => item.entity !== ENTITY);
  const fetched = new Map<number, Record<string, unknown>>();
  if (entries.length)
    for (const item of await batchGet(entries.map((entry) => keys.ticket(listedTicketId(entry)))))
      if (item) fetched.set(Number(item.id), item);
  return items.flatMap((item) => {
    if (item.entity === ENTITY) return [fromTicketItem(item)];
    const whole = fetched.get(listedTicketId(item));
    return whole && !whole.deleted ? [fromTicketItem(whole)] : [];
  });
}

/** The record (deleted ones included), strongly consistent; undefined when there is none. */
export async function readTicketRecord(id: number): Promise<TicketRecord | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.ticket(id), ConsistentRead: true }),
  );
  return Item ? fromTicketItem(Item) : undefined;
}

/** Records by id (deleted ones included), strongly consistent; missing ids are absent from the map. */
export async function readTicketRecords(ids: number[]): Promise<Map<number, TicketRecord>> {
  const items = await batchGet(
    ids.map((id) => keys.ticket(id)),
    { consistent: true },
  );
  return new Map(items.flatMap((item) => (item ? [[Number(item.id), fromTicketItem(item)] as const] : [])));
}

/** Tickets an order can hold (a sale takes at most MAX_TICKETS_PER_RESERVATION; the scale seeds no more than this): its Query reads at most this many. */
export const MAX_ORDER_TICKETS = 50;

/**
 * A page of a customer's live tickets in id order, from their first (or the first after ticket
 * id `after`): one Query of their entries reading offset+limit+1 (the account mail asks for
 * the first page; `GET /ticket?customerId=` finds `after` from the customer's kept positions,
 * customer-ticket-list.ts, so its offset is less than a block). `totalCount` is what was read
 * (exact when `more` is false) and `more` says whether tickets follow the page.
 */
export async function listCustomerTickets(
  customerId: number,
  { limit, offset, after }: { limit: number; offset: number; after?: number },
): Promise<Page<TicketRecord> & { more: boolean }> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(
        keys.customerTickets(customerId),
        after === undefined ? undefined : { from: keys.ticketSort(after + 1) },
      ),
      // One more than the page: whether it exists says whether more follow.
      Limit: offset + limit + 1,
    }),
  );
  const listed = Items.slice(0, offset + limit);
  // Only the page's tickets are read; the ones before it count from their entries.
  const items = await listedRecords(listed.slice(offset));
  return { totalCount: listed.length, limit, offset, items, more: Items.length > offset + limit };
}
