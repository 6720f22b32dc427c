import { placedIn } from './key-conditions.ts';
import { INDEX_SHARDS, lower, on, purchaseSort, sortableId, table, ticketSort, type Key } from './key-parts.ts';

/**
 * The customers' and orders' declarations (the portal's accounts, their orders, tickets and
 * counts, the catalogue), part of `keys` (keys.ts) and held to the same rule: no key template
 * or index name anywhere else.
 */
/** How many partitions the across-events order lists (GSI5, GSI6) spread over: read merged, written by `id % ORDER_SHARDS`. */
export const ORDER_SHARDS = 8;

export const customerKeys = {
  // ---- Customers (the portal's accounts and their verification) ----
  /** The customer record: one GetItem by id. */
  customer: (id: number): Key => ({ PK: `CUSTOMER#${id}`, SK: 'CUSTOMER' }),
  /** A customer's partition: their events' links and order counts. */
  customerItems: (id: number) => table(`CUSTOMER#${id}`),
  /**
   * A customer's live tickets, counted (`n`) in each ticket's own transaction from the customer's creation on: the
   * exact `totalCount` of `GET /ticket?customerId=` (an `_offset` page is found from `customerPosition`).
   */
  customerTicketCount: (id: number): Key => ({ PK: `CUSTOMER#${id}`, SK: 'TICKETS#count' }),
  /** A customer by Cognito `sub` (login) on GSI1, by lower-cased email (the pre-check of create) on GSI2. */
  customerBySub: (sub: string) => on('GSI1', `CUSTOMER_SUB#${sub}`),
  customerByEmail: (email: string) => on('GSI2', `CUSTOMER_EMAIL#${lower(email)}`),
  customerIndexes: (sub: string, email: string) =>
    placedIn([customerKeys.customerBySub(sub), 'CUSTOMER'], [customerKeys.customerByEmail(email), 'CUSTOMER']),
  /** One per customer login, in the transactions that create or switch it: emails stay unique. */
  customerEmailUnique: (email: string): Key => ({ PK: `UNIQUE#CUSTOMER_EMAIL#${lower(email)}`, SK: 'UNIQUE' }),
  /** A mailed verification token, by its SHA-256 (TTL `expiresAt`, 48 h). */
  emailVerification: (tokenHash: string): Key => ({ PK: `EMAIL_VERIFICATION#${tokenHash}`, SK: 'EMAIL_VERIFICATION' }),

  // ---- Catalogue and orders (portal events, wave times, orders, payment processor) ----
  /** GSI1 of published events only (sparse): `PUBLISHED_EVENTS` / `<startsAt ISO>#<id:10>`, a start range is a key condition. */
  publishedEvents: on('GSI1', 'PUBLISHED_EVENTS'),
  publishedEventSort: (startsAt: string, id: number) => `${startsAt}#${sortableId(id)}`,
  publishedEventIndexes: (startsAt: string, id: number) =>
    placedIn([customerKeys.publishedEvents, customerKeys.publishedEventSort(startsAt, id)]),
  /**
   * A published event's search entry per distinct 3-character start of its words
   * (shared/portal/domain/portal-lists.ts), written with the event: GSI1 `EVENT_SEARCH#<start>` /
   * `<startsAt ISO>#<id:10>`, so the events a word can find are one partition, in start order.
   */
  eventSearchEntry: (eventId: number, bucket: string): Key => ({ PK: `EVENT#${eventId}`, SK: `SEARCH#${bucket}` }),
  eventSearchEntryPrefix: 'SEARCH#',
  eventSearch: (bucket: string) => on('GSI1', `EVENT_SEARCH#${bucket}`),
  eventSearchIndexes: (bucket: string, startsAt: string, id: number) =>
    placedIn([customerKeys.eventSearch(bucket), customerKeys.publishedEventSort(startsAt, id)]),
  /** The published events' count (`n`, moved in each published event's creation): the portal list's totalCount. */
  publishedEventCount: (): Key => ({ PK: 'COUNT#PUBLISHED_EVENTS', SK: 'COUNT' }),
  /** A start wave of an event: Query the event's partition by `WAVE#`. */
  waveTime: (eventId: number, id: number): Key => ({ PK: `EVENT#${eventId}`, SK: `WAVE#${sortableId(id)}` }),
  waveTimePrefix: 'WAVE#',
  /** A customer holds an order for an event (its events even when unpublished): Query the customer's partition by `EVENT#`. */
  customerEvent: (customerId: number, eventId: number): Key => ({
    PK: `CUSTOMER#${customerId}`,
    SK: `EVENT#${sortableId(eventId)}`,
  }),
  customerEventPrefix: 'EVENT#',
  /**
   * The link item on GSI1 `CUSTOMER_EVENTS#<customerId>` by `<startsAt>#<id:10>`, the same sort
   * key as the event's on `PUBLISHED_EVENTS` (an event's start stays once it has tickets:
   * shared/events/domain/event-admin.ts; its publication changes freely and the link holds none of it):
   * `return=orders` walks it, `all` merges it with the published events, one entry per sort key.
   */
  customerEventsByStart: (customerId: number) => on('GSI1', `CUSTOMER_EVENTS#${customerId}`),
  customerEventIndexes: (customerId: number, event: { id: number; startsAt: string }) =>
    placedIn([
      customerKeys.customerEventsByStart(customerId),
      customerKeys.publishedEventSort(event.startsAt, event.id),
    ]),
  /** A customer's order counts: total, per event, per ticket type (the orders list's totalCount). */
  orderCounts: (customerId: number): Key => ({ PK: `CUSTOMER#${customerId}`, SK: 'ORDER_COUNTS' }),
  order: (id: number): Key => ({ PK: `ORDER#${id}`, SK: 'ORDER' }),
  /** A checkout order's attendees, beside the order: written once, so the order's own writes stay small (orders.ts). */
  orderAttendees: (id: number): Key => ({ PK: `ORDER#${id}`, SK: 'ATTENDEES' }),
  /**
   * An order's place in the lists that never move with its status (GSI1, GSI2, GSI3, GSI5 below), a small item
   * beside the order written once with it: the order item itself is only in the status-keyed GSI4 and GSI6, so each
   * write of the order (its status moves, payments, issued tickets) rewrites two index entries, not six. The lists
   * read these entries and then the page's orders (shared/lists/orders.ts).
   */
  orderListEntry: (id: number): Key => ({ PK: `ORDER#${id}`, SK: 'ORDER_LISTS' }),
  /**
   * An order's place in the status-keyed lists (GSI4, GSI6 below), a small item beside the order moved with its status
   * as a plain write after the status's transaction: in no index itself, the order item costs 2 units a transactional
   * write, not 10 (shared/lists/README.md "A paid order's write units").
   */
  orderStatusEntry: (id: number): Key => ({ PK: `ORDER#${id}`, SK: 'ORDER_STATUS' }),
  /** GSI1 a customer's orders, GSI2 a customer's orders of one event; both sorted by purchase time. */
  customerOrders: (customerId: number) => on('GSI1', `CUSTOMER_ORDERS#${customerId}`),
  customerEventOrders: (customerId: number, eventId: number) =>
    on('GSI2', `CUSTOMER_EVENT_ORDERS#${customerId}#${eventId}`),
  orderIndexes: (customerId: number, eventId: number, purchasedDate: string, id: number) =>
    placedIn(
      [customerKeys.customerOrders(customerId), purchaseSort(purchasedDate, id)],
      [customerKeys.customerEventOrders(customerId, eventId), purchaseSort(purchasedDate, id)],
    ),
  /**
   * The staff's order lists (`GET /orders`), every one by `<purchasedDate>#<id:10>`: GSI3 an event's orders, GSI4 an
   * event's orders in one status (moved with the status), GSI5 every order and GSI6 every order in one status, each
   * write-sharded by id, merged when read: an event's INDEX_SHARDS ways (an on-sale's orders would heat one partition),
   * every event's ORDER_SHARDS ways (all events' sales would share one partition).
   */
  eventOrders: (eventId: number, shard: number) => on('GSI3', `EVENT_ORDERS#${eventId}#${shard}`),
  eventStatusOrders: (eventId: number, status: string, shard: number) =>
    on('GSI4', `EVENT_STATUS_ORDERS#${eventId}#${status}#${shard}`),
  allOrders: (shard: number) => on('GSI5', `ALL_ORDERS#${shard}`),
  statusOrders: (status: string, shard: number) => on('GSI6', `STATUS_ORDERS#${status}#${shard}`),
  /** The index places of an order's status entry, which move with the order's status (GSI4, GSI6). */
  orderStatusIndexes: (order: { id: number; eventId: number; status: string; purchasedDate: string }) =>
    placedIn(
      [
        customerKeys.eventStatusOrders(order.eventId, order.status, order.id % INDEX_SHARDS.eventStatusOrders),
        purchaseSort(order.purchasedDate, order.id),
      ],
      [customerKeys.statusOrders(order.status, order.id % ORDER_SHARDS), purchaseSort(order.purchasedDate, order.id)],
    ),
  /** The index places of an order that stay (GSI3, GSI5). */
  orderStaffIndexes: (order: { id: number; eventId: number; purchasedDate: string }) =>
    placedIn(
      [
        customerKeys.eventOrders(order.eventId, order.id % INDEX_SHARDS.eventOrders),
        purchaseSort(order.purchasedDate, order.id),
      ],
      [customerKeys.allOrders(order.id % ORDER_SHARDS), purchaseSort(order.purchasedDate, order.id)],
    ),
  /**
   * A disputed order's list entry (shared/selling/data/order-disputes.ts), in the order's partition and rewritten with each
   * dispute event: GSI3 `EVENT_DISPUTED_ORDERS#<eventId>#<open|closed>` an event's, GSI5 `DISPUTED_ORDERS#<open|closed>`
   * every event's (unsharded: disputes are rare and written only by Stripe's events), both by `<purchasedDate>#<id:10>`.
   * The order item's own indexes are all taken, hence an item of its own; sparse: only disputed orders have one.
   */
  orderDisputeEntry: (orderId: number): Key => ({ PK: `ORDER#${orderId}`, SK: 'DISPUTE' }),
  eventDisputedOrders: (eventId: number, state: string) => on('GSI3', `EVENT_DISPUTED_ORDERS#${eventId}#${state}`),
  disputedOrders: (state: string) => on('GSI5', `DISPUTED_ORDERS#${state}`),
  orderDisputeIndexes: (order: { id: number; eventId: number; purchasedDate: string }, state: string) =>
    placedIn(
      [customerKeys.eventDisputedOrders(order.eventId, state), purchaseSort(order.purchasedDate, order.id)],
      [customerKeys.disputedOrders(state), purchaseSort(order.purchasedDate, order.id)],
    ),
  /**
   * Orders counted for the staff's `totalCount`, `n` and one `s#<status>` per status, moved in each order's creation
   * and status change: an event's shard (`EVENT_ORDER_COUNTS#<eventId>#<shard>`) and its group's shard of every
   * event's count (`ALL_ORDER_COUNTS#<group>#<shard>`); which shard and group: order-count-shards.ts.
   */
  eventOrderCounts: (eventId: number, shard: number): Key => ({
    PK: `EVENT_ORDER_COUNTS#${eventId}#${shard}`,
    SK: 'COUNT',
  }),
  allOrderCounts: (group: number, shard: number): Key => ({ PK: `ALL_ORDER_COUNTS#${group}#${shard}`, SK: 'COUNT' }),
  /**
   * An order's invoices and credit notes (shared/selling/data/invoices.ts), in the order's partition: its one invoice
   * (`DOCUMENT#INVOICE`, put once: the paid order's numbering skips an order that has it) and a credit note per cancel
   * (`DOCUMENT#CREDIT#<cancel>`, put once by its cancel). Listed by one Query of the prefix.
   */
  orderDocument: (orderId: number, name: string): Key => ({ PK: `ORDER#${orderId}`, SK: `DOCUMENT#${name}` }),
  orderDocuments: (orderId: number) => table(`ORDER#${orderId}`),
  orderDocumentsPrefix: 'DOCUMENT#',
  /** A document's name in its order: the invoice, a part's credit note (by the part's place), the rest's. */
  documentNames: {
    invoice: 'INVOICE',
    partCredit: (part: number) => `CREDIT#PART#${String(part).padStart(3, '0')}`,
    restCredit: 'CREDIT#REST',
  },
  /**
   * A seller's invoice numbers of one year in one series: `last`, the last number given (gapless per series). The
   * series is in the partition key: the series' counters together take more write units a second than one key may.
   */
  invoiceNumbers: (seller: string, year: number, series: number): Key => ({
    PK: `INVOICE_NUMBERS#${seller}#${series}`,
    SK: `YEAR#${year}`,
  }),
  /**
   * A paid order whose invoicing failed, due to be numbered by the every-minute job (shared/selling/data/invoices-due.ts):
   * one entry per order in one of a few shards by its id, put only when the numbering failed, so a paid order's path
   * writes none.
   */
  invoiceDue: (shard: number, orderId: number): Key => ({
    PK: `INVOICE_DUE#${shard}`,
    SK: `ORDER#${sortableId(orderId)}`,
  }),
  invoicesDueIn: (shard: number) => table(`INVOICE_DUE#${shard}`),
  /** GSI3 an order's tickets, GSI4 a customer's tickets (sparse: set and not deleted, like GSI1/GSI2 of tickets). */
  orderTickets: (orderId: number) => on('GSI3', `ORDER_TICKETS#${orderId}`),
  customerTickets: (customerId: number) => on('GSI4', `CUSTOMER_TICKETS#${customerId}`),
  orderTicketIndexes: (orderId: number, ticketId: number) =>
    placedIn([customerKeys.orderTickets(orderId), ticketSort(ticketId)]),
  customerTicketIndexes: (customerId: number, ticketId: number) =>
    placedIn([customerKeys.customerTickets(customerId), ticketSort(ticketId)]),
  /** The one payment processor configuration (public settings only; secrets live in Secrets Manager). */
  paymentProcessor: { PK: 'PAYMENT_PROCESSOR', SK: 'PAYMENT_PROCESSOR' } as Key,
};
