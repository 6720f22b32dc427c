import { countKeys } from './count-keys.ts';
import { customerKeys } from './customer-keys.ts';
import { eventAdminKeys } from './event-admin-keys.ts';
import { placedIn, type SortCondition } from './key-conditions.ts';
import { promoCodeKeys } from './promo-code-keys.ts';
import {
  INDEX_SHARDS,
  lower,
  on,
  purchaseSort,
  shardsOf,
  sortableId,
  table,
  ticketSort,
  type Key,
} from './key-parts.ts';

export { INDEX_SHARDS, shardsOf, sortableId, type Key };
export type { PurchaseHolder } from './count-keys.ts';

/**
 * The table's declarations: every item key, index partition and index placement is built
 * here (typed builders, `placedIn`; the customers' and orders' in customer-keys.ts, merged
 * in, over the parts in key-parts.ts), and no key template or index name is written anywhere
 * else (test/unit/key-declarations.test.ts fails on one); Queries read these partitions
 * through `keyCondition` (key-conditions.ts). The key table in shared/data/README.md shows
 * each key with the access pattern it serves; keep the two in step.
 *
 * An event's partition holds the event, its ticket types, teams, the grants of other
 * events' access packages into it, its statistics shards, list positions, waves and
 * waivers; each is read by its own key or prefix, never the whole partition. A ticket's
 * partition holds the record (the hot item of a check-in), its history, scans, list and
 * search entries and waiver signatures. The record is in the update-time index only; the
 * lists find it through its entries, which a deleted ticket does not have (sparse), so it
 * leaves every list while its record stays.
 */
/** A list position item's sort key (shared/lists/list-positions.ts): its list, then its block (or span) in order. */
const positionSort = (list: string, block: number) => `POS#${list}#${String(block).padStart(8, '0')}`;

export const keys = {
  shippingMethod: (id: number): Key => ({ PK: `SHIPPING_METHOD#${id}`, SK: 'SHIPPING_METHOD' }),
  /** Every shipping method, in id order. */
  shippingMethodList: on('GSI1', 'SHIPPING_METHODS'),
  shippingMethodIndexes: (id: number) => placedIn([keys.shippingMethodList, `SHIPPING_METHOD#${sortableId(id)}`]),

  administrator: (id: number): Key => ({ PK: `ADMIN#${id}`, SK: 'ADMIN' }),
  administratorByLogin: (login: string) => on('GSI1', `ADMIN_LOGIN#${lower(login)}`),
  administratorByEmail: (email: string) => on('GSI2', `ADMIN_EMAIL#${lower(email)}`),
  administratorIndexes: (login: string, email: string) =>
    placedIn([keys.administratorByLogin(login), 'ADMIN'], [keys.administratorByEmail(email), 'ADMIN']),
  /** A caller as the idempotency and answer records name it: `ADMIN#<id>`, `CUSTOMER#<id>`. */
  caller: (kind: 'admin' | 'customer', id: number) => `${kind.toUpperCase()}#${id}`,

  oauthLogin: (ref: string): Key => ({ PK: `OAUTH_LOGIN#${ref}`, SK: 'OAUTH_LOGIN' }),
  resetToken: (tokenHash: string): Key => ({ PK: `RESET_TOKEN#${tokenHash}`, SK: 'RESET_TOKEN' }),
  resetTokensOf: (adminId: number) => on('GSI1', `RESET_TOKENS#ADMIN#${adminId}`),
  resetTokenIndexes: (adminId: number, createdIso: string) => placedIn([keys.resetTokensOf(adminId), createdIso]),
  rateWindow: (name: string, subject: string): Key => ({ PK: `RATE#${name}#${subject}`, SK: 'RATE' }),

  unique: (kind: string, value: string): Key => ({ PK: `UNIQUE#${kind}#${value}`, SK: 'UNIQUE' }),
  sequence: (name: string): Key => ({ PK: `SEQUENCE#${name}`, SK: 'SEQUENCE' }),
  /** The data migrations' ledger (shared/migrations/data/migration-ledger.ts): one item per migration, in order. */
  migration: (id: number): Key => ({ PK: 'MIGRATIONS', SK: `MIGRATION#${String(id).padStart(4, '0')}` }),
  migrationLedger: table('MIGRATIONS'),
  /** A migration's checkpoint of one run (migration-ledger.ts `migrationCheckpoint`). */
  maintenanceCheckpoint: (command: string, run: string): Key => ({
    PK: `MAINTENANCE#${command}`,
    SK: `CHECKPOINT#${run}`,
  }),
  /** The stage's key for hashing submitted logins before they are logged (shared/identity/data/log-key.ts). */
  logKey: (): Key => ({ PK: 'LOG_KEY', SK: 'LOG_KEY' }),
  count: (name: string): Key => ({ PK: `COUNT#${name}`, SK: 'COUNT' }),

  event: (id: number): Key => ({ PK: `EVENT#${id}`, SK: 'EVENT' }),
  /** Whether a key (a stream record's) is an event item's, the one `event` builds. */
  isEvent: (pk: string | undefined, sk: string | undefined): boolean => sk === 'EVENT' && !!pk?.startsWith('EVENT#'),
  /** An event's partition: its ticket types, teams, grants, waves, waivers, shards and positions, each read by its prefix. */
  eventItems: (id: number) => table(`EVENT#${id}`),
  ticketType: (eventId: number, id: number): Key => ({ PK: `EVENT#${eventId}`, SK: `TICKET_TYPE#${sortableId(id)}` }),
  ticketTypePrefix: 'TICKET_TYPE#',
  /** A ticket type by id alone: GSI1 `TICKET_TYPE#<id>` / `TICKET_TYPE`. */
  ticketTypeById: (id: number) => on('GSI1', `TICKET_TYPE#${id}`),
  ticketTypeSort: 'TICKET_TYPE',
  ticketTypeIndexes: (id: number) => placedIn([keys.ticketTypeById(id), keys.ticketTypeSort]),
  accessGrant: (grantedEventId: number, typeId: number): Key => ({
    PK: `EVENT#${grantedEventId}`,
    SK: `GRANT#${sortableId(typeId)}`,
  }),
  accessGrantPrefix: 'GRANT#',
  team: (eventId: number, id: number): Key => ({ PK: `EVENT#${eventId}`, SK: `TEAM#${sortableId(id)}` }),
  teamPrefix: 'TEAM#',
  /**
   * One shard's count of one block of ticket ids of one list of an event (shared/lists/list-positions.ts), in the
   * shard's partition (`eventPositions`); `positionPrefix` Queries a list's blocks in order.
   */
  listPosition: (eventId: number, shard: number, list: string, block: number): Key => ({
    PK: countKeys.eventPositions(eventId, shard).value,
    SK: positionSort(list, block),
  }),
  positionPrefix: (list: string) => `POS#${list}#`,
  /** One block (or span) of a customer's tickets across events, in the customer's partition (list-positions.ts). */
  customerPosition: (customerId: number, list: string, block: number): Key => ({
    PK: `CUSTOMER#${customerId}`,
    SK: positionSort(list, block),
  }),
  ticket: (id: number): Key => ({ PK: `TICKET#${id}`, SK: 'TICKET' }),
  /** A ticket's partition: its record, history, scans, list and search entries, waiver signatures. */
  ticketItems: (id: number) => table(`TICKET#${id}`),
  ticketSort,
  /**
   * A live ticket's list entries (small items in its own partition, rewritten in its change transaction only
   * when they change, so the ~1 KB ticket item is in no list index):
   * - `LIST` carries GSI1 event+team, GSI2 event+processState and GSI3 every event;
   * - `LIST#EVENT` GSI1 the event's tickets and GSI2 the type's;
   * - `LIST#PURCHASE` GSI3 the order's, GSI4 the customer's (each when set), GSI5 the event's and GSI2 the type's by purchase time;
   * - `LIST#ACCESS#<eventId:10>` GSI1 per other event its type grants entry to.
   */
  ticketListEntry: (ticketId: number): Key => ({ PK: `TICKET#${ticketId}`, SK: 'LIST' }),
  ticketEventEntry: (ticketId: number): Key => ({ PK: `TICKET#${ticketId}`, SK: 'LIST#EVENT' }),
  ticketPurchaseEntry: (ticketId: number): Key => ({ PK: `TICKET#${ticketId}`, SK: 'LIST#PURCHASE' }),
  /** The hot index lists below are write-sharded by ticket id (`INDEX_SHARDS`), each read merged from its shards. */
  eventTickets: (eventId: number, shard: number) => on('GSI1', `EVENT_TICKETS#${eventId}#${shard}`),
  typeTickets: (typeId: number) => on('GSI2', `TYPE_TICKETS#${typeId}`),
  eventEntryIndexes: (eventId: number, typeId: number, id: number) =>
    placedIn(
      [keys.eventTickets(eventId, id % INDEX_SHARDS.eventTickets), ticketSort(id)],
      [keys.typeTickets(typeId), ticketSort(id)],
    ),
  ticketAccessEntry: (ticketId: number, grantedEventId: number): Key => ({
    PK: `TICKET#${ticketId}`,
    SK: `LIST#ACCESS#${sortableId(grantedEventId)}`,
  }),
  ticketAccessEntryPrefix: 'LIST#ACCESS#',
  teamTickets: (eventId: number, teamKey: number, shard: number) =>
    on('GSI1', `TEAM_TICKETS#${eventId}#${teamKey}#${shard}`),
  stateTickets: (eventId: number, processState: number, shard: number) =>
    on('GSI2', `STATE_TICKETS#${eventId}#${processState}#${shard}`),
  accessTickets: (grantedEventId: number) => on('GSI1', `ACCESS_TICKETS#${grantedEventId}`),
  /** The list across all events (every event's sales write it: the most shards). */
  allTickets: (shard: number) => on('GSI3', `ALL_TICKETS#${shard}`),
  listEntryIndexes: (eventId: number, teamKey: number, processState: number, id: number) =>
    placedIn(
      [keys.teamTickets(eventId, teamKey, id % INDEX_SHARDS.eventTickets), ticketSort(id)],
      [keys.stateTickets(eventId, processState, id % INDEX_SHARDS.eventTickets), ticketSort(id)],
      [keys.allTickets(id % INDEX_SHARDS.allTickets), ticketSort(id)],
    ),
  accessEntryIndexes: (grantedEventId: number, id: number) =>
    placedIn([keys.accessTickets(grantedEventId), ticketSort(id)]),
  /** A ticket's search token, where one event's search reads it (GSI2 every event's), and its tokens' list (lists/ticket-search-entries.ts). */
  searchEntry: (eventId: number, bucket: string, token: string, id: number): Key => ({
    PK: `SEARCH#${eventId}#${bucket}`,
    SK: keys.searchSort(token, id),
  }),
  ticketSearchTokens: (ticketId: number): Key => ({ PK: `TICKET#${ticketId}`, SK: 'SEARCH' }),
  searchIn: (eventId: number, bucket: string) => table(`SEARCH#${eventId}#${bucket}`),
  searchEveryEvent: (bucket: string) => on('GSI2', `SEARCH_ALL#${bucket}`),
  searchSort: (token: string, ticketId: number) => `${token}#${sortableId(ticketId)}`,
  searchEntryIndexes: (bucket: string, token: string, id: number) =>
    placedIn([keys.searchEveryEvent(bucket), keys.searchSort(token, id)]),
  /** A ticket's history, newest first: Query the ticket's partition between two of these, backwards. */
  ticketHistory: (ticketId: number, version: number): Key => ({
    PK: `TICKET#${ticketId}`,
    SK: `HISTORY#${sortableId(version)}`,
  }),
  scanRecord: (ticketId: number, at: string, nonce: string): Key => ({
    PK: `TICKET#${ticketId}`,
    SK: `SCAN#${at}#${nonce}`,
  }),
  scanRecordPrefix: 'SCAN#',
  /**
   * A gate upload's scan by its client id within the caller's event scope (shared/gate/data/gate-scans.ts): kept once, so a
   * resent scan answers what it did, and only to a caller of that scope (another scope's same id is another record).
   */
  gateScan: (scope: string, scanId: string): Key => ({ PK: `GATE_SCAN#${scope}#${scanId}`, SK: 'GATE_SCAN' }),
  bib: (eventId: number, bib: string): Key => ({ PK: `UNIQUE#BIB#${eventId}#${bib}`, SK: 'UNIQUE' }),
  /** An `Idempotency-Key` of a route, scoped to its caller (`ADMIN#<id>`, `CUSTOMER#<id>`): the key is last, so no key can reach another scope. */
  idempotentRequest: (route: string, caller: string, key: string): Key => ({
    PK: `IDEMPOTENCY#${route}#${caller}#${key}`,
    SK: 'REQUEST',
  }),

  // ---- Older ticket routes: the list's indexes (barcode, purchases, update-time sync) ----
  /** One per live ticket's barcode, in its change transaction (like the bib): barcodes stay unique, the `barcode` filter is one GetItem. */
  barcode: (barcode: string): Key => ({ PK: `UNIQUE#BARCODE#${barcode}`, SK: 'UNIQUE' }),
  /** GSI5 an event's live tickets by purchase time (a purchase range is a key condition). */
  eventPurchases: (eventId: number, shard: number) => on('GSI5', `EVENT_PURCHASES#${eventId}#${shard}`),
  purchaseSort,
  eventPurchaseIndexes: (eventId: number, purchasedDate: string, id: number) =>
    placedIn([keys.eventPurchases(eventId, id % INDEX_SHARDS.eventTickets), keys.purchaseSort(purchasedDate, id)]),
  /** GSI2 a type's live tickets by purchase time: a purchase range with `typeId` is a key condition of the type's alone. */
  typePurchases: (typeId: number) => on('GSI2', `TYPE_PURCHASES#${typeId}`),
  typePurchaseIndexes: (typeId: number, purchasedDate: string, id: number) =>
    placedIn([keys.typePurchases(typeId), keys.purchaseSort(purchasedDate, id)]),
  /** GSI6 every ticket (deleted ones too) by update time, write-sharded by `id % shards`: the incremental sync. */
  ticketUpdates: (shard: number) => on('GSI6', `TICKET_UPDATES#${shard}`),
  updateSort: (updated: string, id: number) => `${updated}#${sortableId(id)}`,
  ticketUpdateIndexes: (shard: number, updated: string, id: number) =>
    placedIn([keys.ticketUpdates(shard), keys.updateSort(updated, id)]),
  /**
   * GSI5 one event's tickets (deleted ones too) by update time, write-sharded as GSI6: the
   * sync of one event (`eventId` or `typeId` with `updatedFrom`) reads only its own changes.
   * On the record beside GSI6 (the list entries it once held on GSI5 are in other partitions).
   */
  eventUpdates: (eventId: number, shard: number) => on('GSI5', `EVENT_UPDATES#${eventId}#${shard}`),
  eventUpdateIndexes: (eventId: number, shard: number, updated: string, id: number) =>
    placedIn([keys.eventUpdates(eventId, shard), keys.updateSort(updated, id)]),
  /** A purchase or update time bound: `<ISO>#` sorts before every id at that instant, `<ISO>#~` after. */
  timeSortBound: (iso: string, end: 'first' | 'last') => (end === 'first' ? `${iso}#` : `${iso}#~`),
  /** The sort condition of `<ISO>#<id:10>` keys within [from, to] (inclusive, either open); undefined when both are. */
  timeRange: ({ from, to }: { from?: string; to?: string }): SortCondition | undefined => {
    const [low, high] = [
      from === undefined ? undefined : keys.timeSortBound(from, 'first'),
      to === undefined ? undefined : keys.timeSortBound(to, 'last'),
    ];
    if (low !== undefined && high !== undefined) return { between: [low, high] };
    return low !== undefined ? { from: low } : high !== undefined ? { to: high } : undefined;
  },

  // ---- Webhooks (shared/webhooks/data/webhooks.ts) ----
  /** Every subscription, one partition (at most MAX_WEBHOOKS): each ticket change reads it whole, by one Query. */
  webhooks: table('WEBHOOKS'),
  webhook: (id: number): Key => ({ PK: 'WEBHOOKS', SK: `WEBHOOK#${sortableId(id)}` }),
  webhookPrefix: 'WEBHOOK#',
  /** A subscription's deliveries, newest last by their time-ordered ids. */
  webhookDeliveries: (webhookId: number) => table(`WEBHOOK#${sortableId(webhookId)}`),
  delivery: (webhookId: number, deliveryId: string): Key => ({
    PK: `WEBHOOK#${sortableId(webhookId)}`,
    SK: `DELIVERY#${deliveryId}`,
  }),
  deliveryPrefix: 'DELIVERY#',
  /**
   * Pending deliveries: GSI3 each subscription's by next attempt (the dispatcher reads every one's due ones, so one
   * receiver's backlog hides no other's), GSI1 all of them by next attempt (those of deleted subscriptions), GSI2 by
   * creation (the oldest undelivered).
   */
  dueDeliveries: on('GSI1', 'WEBHOOK_DUE'),
  subscriptionDueDeliveries: (webhookId: number) => on('GSI3', `WEBHOOK_DUE#${sortableId(webhookId)}`),
  waitingDeliveries: on('GSI2', 'WEBHOOK_WAITING'),
  pendingDeliveryIndexes: (nextAttemptAt: string, created: string, webhookId: number, deliveryId: string) =>
    placedIn(
      [keys.dueDeliveries, `${nextAttemptAt}#${sortableId(webhookId)}#${deliveryId}`],
      [keys.subscriptionDueDeliveries(webhookId), `${nextAttemptAt}#${deliveryId}`],
      [keys.waitingDeliveries, `${created}#${sortableId(webhookId)}#${deliveryId}`],
    ),

  // ---- Claims (a ticket sent to someone else to claim) ----
  /** A mailed claim link's token, by its SHA-256: `{ticketId, claimantEmail}` (TTL `expiresAt`, 14 days). */
  claimToken: (tokenHash: string): Key => ({ PK: `CLAIM_TOKEN#${tokenHash}`, SK: 'CLAIM_TOKEN' }),

  ...customerKeys,
  ...eventAdminKeys,
  ...countKeys,
  ...promoCodeKeys,

  /** A ticket's required waivers: Query the event's partition by the event-wide prefix and by its type's. */
  waiver: (eventId: number, ticketTypeId: number | null, id: number): Key => ({
    PK: `EVENT#${eventId}`,
    SK:
      ticketTypeId === null
        ? `WAIVER#EVENT#${sortableId(id)}`
        : `WAIVER#TYPE#${sortableId(ticketTypeId)}#${sortableId(id)}`,
  }),
  eventWaiversPrefix: 'WAIVER#EVENT#',
  /** Every waiver of the event (event-wide and per type). */
  waiversPrefix: 'WAIVER#',
  typeWaiversPrefix: (ticketTypeId: number) => `WAIVER#TYPE#${sortableId(ticketTypeId)}#`,
  waiverVersion: (waiverId: number, hash: string): Key => ({ PK: `WAIVER#${waiverId}`, SK: `VERSION#${hash}` }),
  /** A ticket's signatures: one Query of the ticket's partition by this prefix. */
  waiverSignature: (ticketId: number, waiverId: number): Key => ({
    PK: `TICKET#${ticketId}`,
    SK: `WAIVER_SIGNATURE#${sortableId(waiverId)}`,
  }),
  waiverSignaturesPrefix: 'WAIVER_SIGNATURE#',

  /** A shard of a ticket type's stock (shared/selling/data/stock.ts): tickets `left` for sale and `held` by reservations. */
  stock: (typeId: number, shard: number): Key => ({ PK: `STOCK#${typeId}#${shard}`, SK: 'STOCK' }),
  reservation: (id: number): Key => ({ PK: `RESERVATION#${id}`, SK: 'RESERVATION' }),
  /**
   * The customer's one reservation holding stock for an event: present while it is `held` or `checked_out`, then
   * kept as their cool-down (`coolsUntil`) when it ended unpaid, deleted when it was paid.
   */
  activeReservation: (customerId: number, eventId: number): Key => ({
    PK: `CUSTOMER#${customerId}`,
    SK: `RESERVATION#EVENT#${sortableId(eventId)}`,
  }),
  /**
   * The tickets one network holds of an event (`held`), counted in each hold's transaction and given back when it
   * ends (shared/selling/data/reservations.ts); a network is the rate limits' subject (an IPv4 address, an IPv6 /64).
   */
  networkHolds: (eventId: number, network: string): Key => ({
    PK: `NETWORK_HELD#${sortableId(eventId)}#${network}`,
    SK: 'NETWORK_HELD',
  }),
  /** A holding reservation's due entry: the minute it lapses in and a shard of that minute, by expiry then id. */
  reservationDue: (minute: string, shard: number, expiresAt: string, id: number): Key => ({
    PK: `RESERVATION_DUE#${minute}#${shard}`,
    SK: `${expiresAt}#${sortableId(id)}`,
  }),
  reservationsDueIn: (minute: string, shard: number) => table(`RESERVATION_DUE#${minute}#${shard}`),
};
