/**
 * Key builders: every key and index name of the table is spelled here and nowhere else.
 * The README's "Storage" section shows the whole key table with the access pattern each
 * key serves; keep the two in step.
 *
 * | entity            | PK                          | SK                              | index keys                                           |
 * |-------------------|-----------------------------|---------------------------------|------------------------------------------------------|
 * | shipping method   | SHIPPING_METHOD#<id>        | SHIPPING_METHOD                 | GSI1 SHIPPING_METHODS / SHIPPING_METHOD#<id:10>      |
 * | administrator     | ADMIN#<id>                  | ADMIN                           | GSI1 ADMIN_LOGIN#<login>; GSI2 ADMIN_EMAIL#<email>   |
 * | login in flight   | OAUTH_LOGIN#<ref>           | OAUTH_LOGIN                     | (TTL `expiresAt`: PKCE verifier, 10 min)             |
 * | reset token       | RESET_TOKEN#<sha256>        | RESET_TOKEN                     | GSI1 RESET_TOKENS#ADMIN#<id> / <created ISO>         |
 * | rate window       | RATE#<name>#<subject>       | RATE                            | (TTL `expiresAt`)                                    |
 * | unique value      | UNIQUE#<kind>#<value>       | UNIQUE                          |                                                      |
 * | id sequence       | SEQUENCE#<name>             | SEQUENCE                        |                                                      |
 * | log hashing key   | LOG_KEY                     | LOG_KEY                         |                                                      |
 * | aggregate count   | COUNT#<name>                | COUNT                           |                                                      |
 * | event             | EVENT#<id>                  | EVENT                           |                                                      |
 * | ticket type       | EVENT#<eventId>             | TICKET_TYPE#<id:10>             | GSI1 TICKET_TYPE#<id> / TICKET_TYPE                  |
 * | access grant      | EVENT#<grantedEventId>      | GRANT#<typeId:10>               |                                                      |
 * | team              | EVENT#<eventId>             | TEAM#<id:10>                    |                                                      |
 * | event stats shard | EVENT#<eventId>             | STATS#<0..9>                    |                                                      |
 * | list positions    | EVENT#<eventId>             | POS#<list>#<block:8>            | (list: event, team#<k>, type#<t>, access)            |
 * | waiver (event)    | EVENT#<eventId>             | WAIVER#EVENT#<id:10>            |                                                      |
 * | waiver (type)     | EVENT#<eventId>             | WAIVER#TYPE#<typeId:10>#<id:10> |                                                      |
 * | waiver version    | WAIVER#<id>                 | VERSION#<sha256>                |                                                      |
 * | ticket            | TICKET#<id>                 | TICKET                          | GSI1 EVENT_TICKETS#<eventId> / TICKET#<id:10>;       |
 * |                   |                             |                                 | GSI2 TYPE_TICKETS#<typeId> / TICKET#<id:10> (live)   |
 * | ticket history    | TICKET#<id>                 | HISTORY#<version:10>            |                                                      |
 * | list entry        | TICKET#<id>                 | LIST                            | GSI1 TEAM_TICKETS#<eventId>#<team> / TICKET#<id:10>; |
 * |                   |                             |                                 | GSI2 STATE_TICKETS#<eventId>#<state> / same (live);  |
 * |                   |                             |                                 | GSI3 ALL_TICKETS / same (live, every event)          |
 * | access entry      | TICKET#<id>                 | LIST#ACCESS#<eventId:10>        | GSI1 ACCESS_TICKETS#<grantedEventId> / same (live)   |
 * | search entry      | TICKET#<id>                 | SEARCH#<token>                  | GSI1 SEARCH#<eventId>#<token:2> / <token>#<id:10>;   |
 * |                   |                             |                                 | GSI2 SEARCH_ALL#<token:2> / same (every event)       |
 * | scan (ok/refused) | TICKET#<id>                 | SCAN#<iso time>#<nonce>         |                                                      |
 * | waiver signature  | TICKET#<ticketId>           | WAIVER_SIGNATURE#<waiverId:10>  |                                                      |
 * | bib in use        | UNIQUE#BIB#<eventId>#<bib>  | UNIQUE                          |                                                      |
 * | idempotent request| IDEMPOTENCY#<route>#<caller>#<key> | REQUEST                  | (TTL `expiresAt`, 24 h)                              |
 * | idempotent answer | IDEMPOTENCY#<route>#<caller>#<key> | ANSWER                   | (TTL `expiresAt`, 24 h; check-in and transfer)       |
 * | barcode in use    | UNIQUE#BARCODE#<barcode>    | UNIQUE                          |                                                      |
 * | claim link token  | CLAIM_TOKEN#<sha256>        | CLAIM_TOKEN                     | (TTL `expiresAt`, 14 days)                           |
 * | customer          | CUSTOMER#<id>               | CUSTOMER                        | GSI1 CUSTOMER_SUB#<sub>; GSI2 CUSTOMER_EMAIL#<email> |
 * | customer's event  | CUSTOMER#<customerId>       | EVENT#<eventId:10>              |                                                      |
 * | order counts      | CUSTOMER#<customerId>       | ORDER_COUNTS                    |                                                      |
 * | customer email    | UNIQUE#CUSTOMER_EMAIL#<email> | UNIQUE                        |                                                      |
 * | email verification| EMAIL_VERIFICATION#<sha256> | EMAIL_VERIFICATION              | (TTL `expiresAt`, 48 h)                              |
 * | order             | ORDER#<id>                  | ORDER                           | GSI1 CUSTOMER_ORDERS#<cid> / <purchased>#<id:10>;    |
 * |                   |                             |                                 | GSI2 CUSTOMER_EVENT_ORDERS#<cid>#<eventId> / same    |
 * | wave time         | EVENT#<eventId>             | WAVE#<id:10>                    |                                                      |
 * | payment processor | PAYMENT_PROCESSOR           | PAYMENT_PROCESSOR               |                                                      |
 *
 * Events also carry GSI1 PUBLISHED_EVENTS / <startsAt>#<id:10> while published. Tickets
 * also carry GSI3 ORDER_TICKETS#<orderId> and GSI4 CUSTOMER_TICKETS#<customerId> (live,
 * when set), GSI5 EVENT_PURCHASES#<eventId> / <purchasedDate>#<id:10> (live) and GSI6
 * TICKET_UPDATES#<id % 8> / <updated>#<id:10> (every ticket: the update-time sync).
 *
 * An event's partition holds the event, its ticket types, teams, the grants of other
 * events' access packages into it, its statistics shards and waivers; each is read by
 * its own key or prefix, never the whole partition. A ticket's partition holds the
 * record (the hot item of a check-in), its history, scans and waiver signatures. GSI1
 * and GSI2 list an event's or a type's tickets and are removed on soft delete (sparse),
 * so deleted tickets leave every list. A ticket that counts as checked in adds 1 to
 * `checkedIn.<signature>` in the shard `ticketId % STATS_SHARDS` of every event of its
 * signature; the same shard of its own event holds its share of `sold` and of
 * `listed.<processState>` (see shared/data/ticket-stats.ts).
 */
export type Key = { PK: string; SK: string };

/** Zero-padded so that ids sort numerically inside a string sort key. */
export const sortableId = (id: number): string => String(id).padStart(10, '0');

export const keys = {
  shippingMethod: (id: number): Key => ({ PK: `SHIPPING_METHOD#${id}`, SK: 'SHIPPING_METHOD' }),
  shippingMethodsIndex: 'SHIPPING_METHODS',
  shippingMethodIndexSort: (id: number) => `SHIPPING_METHOD#${sortableId(id)}`,

  administrator: (id: number): Key => ({ PK: `ADMIN#${id}`, SK: 'ADMIN' }),
  administratorLogin: (login: string) => `ADMIN_LOGIN#${login.trim().toLowerCase()}`,
  administratorEmail: (email: string) => `ADMIN_EMAIL#${email.trim().toLowerCase()}`,

  oauthLogin: (ref: string): Key => ({ PK: `OAUTH_LOGIN#${ref}`, SK: 'OAUTH_LOGIN' }),
  resetToken: (tokenHash: string): Key => ({ PK: `RESET_TOKEN#${tokenHash}`, SK: 'RESET_TOKEN' }),
  resetTokensOf: (adminId: number) => `RESET_TOKENS#ADMIN#${adminId}`,
  rateWindow: (name: string, subject: string): Key => ({ PK: `RATE#${name}#${subject}`, SK: 'RATE' }),

  unique: (kind: string, value: string): Key => ({ PK: `UNIQUE#${kind}#${value}`, SK: 'UNIQUE' }),
  sequence: (name: string): Key => ({ PK: `SEQUENCE#${name}`, SK: 'SEQUENCE' }),
  /** The stage's key for hashing submitted logins before they are logged (shared/data/log-key.ts). */
  logKey: (): Key => ({ PK: 'LOG_KEY', SK: 'LOG_KEY' }),
  count: (name: string): Key => ({ PK: `COUNT#${name}`, SK: 'COUNT' }),

  event: (id: number): Key => ({ PK: `EVENT#${id}`, SK: 'EVENT' }),
  eventPartition: (id: number) => `EVENT#${id}`,
  ticketType: (eventId: number, id: number): Key => ({ PK: `EVENT#${eventId}`, SK: `TICKET_TYPE#${sortableId(id)}` }),
  ticketTypePrefix: 'TICKET_TYPE#',
  ticketTypeIndex: (id: number) => ({ GSI1PK: `TICKET_TYPE#${id}`, GSI1SK: 'TICKET_TYPE' }),
  accessGrant: (grantedEventId: number, typeId: number): Key => ({ PK: `EVENT#${grantedEventId}`, SK: `GRANT#${sortableId(typeId)}` }),
  accessGrantPrefix: 'GRANT#',
  team: (eventId: number, id: number): Key => ({ PK: `EVENT#${eventId}`, SK: `TEAM#${sortableId(id)}` }),
  eventStats: (eventId: number, shard: number): Key => ({ PK: `EVENT#${eventId}`, SK: `STATS#${shard}` }),
  /** One block of ticket ids of one list of an event (shared/data/list-positions.ts); `positionPrefix` Queries a list's blocks in order. */
  listPosition: (eventId: number, list: string, block: number): Key => ({ PK: `EVENT#${eventId}`, SK: `POS#${list}#${String(block).padStart(8, '0')}` }),
  positionPrefix: (list: string) => `POS#${list}#`,
  ticket: (id: number): Key => ({ PK: `TICKET#${id}`, SK: 'TICKET' }),
  /** GSI1 (tickets of an event) and GSI2 (tickets of a type); absent on deleted tickets. */
  ticketIndexes: (eventId: number, typeId: number, id: number) => ({
    GSI1PK: `EVENT_TICKETS#${eventId}`,
    GSI1SK: `TICKET#${sortableId(id)}`,
    GSI2PK: `TYPE_TICKETS#${typeId}`,
    GSI2SK: `TICKET#${sortableId(id)}`,
  }),
  eventTicketsIndex: (eventId: number) => `EVENT_TICKETS#${eventId}`,
  typeTicketsIndex: (typeId: number) => `TYPE_TICKETS#${typeId}`,
  /**
   * A live ticket's list entries (small items in its own partition, rewritten in its change transaction):
   * `LIST` carries GSI1 event+team and GSI2 event+processState; `LIST#ACCESS#<eventId:10>` carries GSI1
   * per other event its type grants entry to. The `teams`, `exclude_process_states` and `accessEvents` filters.
   */
  ticketListEntry: (ticketId: number): Key => ({ PK: `TICKET#${ticketId}`, SK: 'LIST' }),
  ticketAccessEntry: (ticketId: number, grantedEventId: number): Key => ({ PK: `TICKET#${ticketId}`, SK: `LIST#ACCESS#${sortableId(grantedEventId)}` }),
  ticketAccessEntryPrefix: 'LIST#ACCESS#',
  teamTicketsIndex: (eventId: number, teamKey: number) => `TEAM_TICKETS#${eventId}#${teamKey}`,
  stateTicketsIndex: (eventId: number, processState: number) => `STATE_TICKETS#${eventId}#${processState}`,
  accessTicketsIndex: (grantedEventId: number) => `ACCESS_TICKETS#${grantedEventId}`,
  /** GSI3 of every live ticket's `LIST` entry: the list across all events (unsharded, as an event's own list is). */
  allTicketsIndex: 'ALL_TICKETS',
  /** A live ticket's search token (shared/data/ticket-search-entries.ts); GSI1 partitions by event and the token's first characters. */
  ticketSearchEntry: (ticketId: number, token: string): Key => ({ PK: `TICKET#${ticketId}`, SK: `SEARCH#${token}` }),
  ticketSearchEntryPrefix: 'SEARCH#',
  searchIndex: (eventId: number, bucket: string) => `SEARCH#${eventId}#${bucket}`,
  /** GSI2 of the same entries across every event: a search without an event filter. */
  searchEveryEventIndex: (bucket: string) => `SEARCH_ALL#${bucket}`,
  searchSort: (token: string, ticketId: number) => `${token}#${sortableId(ticketId)}`,
  /** The sort key of every ticket list (GSI1, GSI2 and the entries): id order; `> ticketSort(id)` resumes after a cursor. */
  ticketSort: (id: number) => `TICKET#${sortableId(id)}`,
  /** A ticket's history, newest first: Query `TICKET#<id>` by this prefix, backwards. */
  ticketHistory: (ticketId: number, version: number): Key => ({ PK: `TICKET#${ticketId}`, SK: `HISTORY#${sortableId(version)}` }),
  scanRecord: (ticketId: number, at: string, nonce: string): Key => ({ PK: `TICKET#${ticketId}`, SK: `SCAN#${at}#${nonce}` }),
  bib: (eventId: number, bib: string): Key => ({ PK: `UNIQUE#BIB#${eventId}#${bib}`, SK: 'UNIQUE' }),
  /** An `Idempotency-Key` of a route, scoped to its caller (`ADMIN#<id>`, `CUSTOMER#<id>`): the key is last, so no key can reach another scope. */
  idempotentRequest: (route: string, caller: string, key: string): Key => ({ PK: `IDEMPOTENCY#${route}#${caller}#${key}`, SK: 'REQUEST' }),
  /** The same request's answer as its ticket change committed it (shared/data/ticket-answers.ts). */
  idempotentAnswer: (route: string, caller: string, key: string): Key => ({ PK: `IDEMPOTENCY#${route}#${caller}#${key}`, SK: 'ANSWER' }),

  // ---- Older ticket routes: the list's indexes (barcode, purchases, update-time sync) ----
  /** One per live ticket's barcode, in its change transaction (like the bib): barcodes stay unique, the `barcode` filter is one GetItem. */
  barcode: (barcode: string): Key => ({ PK: `UNIQUE#BARCODE#${barcode}`, SK: 'UNIQUE' }),
  /** GSI5 an event's live tickets by purchase time (a purchase range is a key condition). */
  eventPurchaseIndex: (eventId: number, purchasedDate: string, id: number) => ({ GSI5PK: `EVENT_PURCHASES#${eventId}`, GSI5SK: `${purchasedDate}#${sortableId(id)}` }),
  eventPurchasesIndex: (eventId: number) => `EVENT_PURCHASES#${eventId}`,
  /** GSI6 every ticket (deleted ones too) by update time, write-sharded by `id % shards`: the incremental sync. */
  ticketUpdateIndex: (shard: number, updated: string, id: number) => ({ GSI6PK: `TICKET_UPDATES#${shard}`, GSI6SK: `${updated}#${sortableId(id)}` }),
  ticketUpdatesIndex: (shard: number) => `TICKET_UPDATES#${shard}`,
  /** A GSI5/GSI6 sort key bound: `<ISO>#` sorts before every id at that instant, `<ISO>#~` after. */
  timeSortBound: (iso: string, end: 'first' | 'last') => (end === 'first' ? `${iso}#` : `${iso}#~`),

  // ---- Claims (a ticket sent to someone else to claim) ----
  /** A mailed claim link's token, by its SHA-256: `{ticketId, claimantEmail}` (TTL `expiresAt`, 14 days). */
  claimToken: (tokenHash: string): Key => ({ PK: `CLAIM_TOKEN#${tokenHash}`, SK: 'CLAIM_TOKEN' }),

  // ---- Customers (the portal's accounts and their verification) ----
  /** The customer record: one GetItem by id. */
  customer: (id: number): Key => ({ PK: `CUSTOMER#${id}`, SK: 'CUSTOMER' }),
  /** GSI1 finds a customer by Cognito `sub` (login), GSI2 by lower-cased email (the pre-check of create). */
  customerIndexes: (sub: string, email: string) => ({
    GSI1PK: `CUSTOMER_SUB#${sub}`,
    GSI1SK: 'CUSTOMER',
    GSI2PK: `CUSTOMER_EMAIL#${email.trim().toLowerCase()}`,
    GSI2SK: 'CUSTOMER',
  }),
  customerSubIndex: (sub: string) => `CUSTOMER_SUB#${sub}`,
  customerEmailIndex: (email: string) => `CUSTOMER_EMAIL#${email.trim().toLowerCase()}`,
  /** One per customer login, in the transactions that create or switch it: emails stay unique. */
  customerEmailUnique: (email: string): Key => ({ PK: `UNIQUE#CUSTOMER_EMAIL#${email.trim().toLowerCase()}`, SK: 'UNIQUE' }),
  /** A mailed verification token, by its SHA-256 (TTL `expiresAt`, 48 h). */
  emailVerification: (tokenHash: string): Key => ({ PK: `EMAIL_VERIFICATION#${tokenHash}`, SK: 'EMAIL_VERIFICATION' }),

  // ---- Catalogue and orders (portal events, wave times, orders, payment processor) ----
  /** GSI1 of published events only (sparse): `PUBLISHED_EVENTS` / `<startsAt ISO>#<id:10>`, a start range is a key condition. */
  publishedEventsIndex: 'PUBLISHED_EVENTS',
  publishedEventSort: (startsAt: string, id: number) => `${startsAt}#${sortableId(id)}`,
  /** A start wave of an event: Query `EVENT#<eventId>` by `WAVE#`. */
  waveTime: (eventId: number, id: number): Key => ({ PK: `EVENT#${eventId}`, SK: `WAVE#${sortableId(id)}` }),
  waveTimePrefix: 'WAVE#',
  /** A customer holds an order for an event (its events even when unpublished): Query `CUSTOMER#<id>` by `EVENT#`. */
  customerEvent: (customerId: number, eventId: number): Key => ({ PK: `CUSTOMER#${customerId}`, SK: `EVENT#${sortableId(eventId)}` }),
  customerPartition: (customerId: number) => `CUSTOMER#${customerId}`,
  customerEventPrefix: 'EVENT#',
  /** A customer's order counts: total, per event, per ticket type (the orders list's totalCount). */
  orderCounts: (customerId: number): Key => ({ PK: `CUSTOMER#${customerId}`, SK: 'ORDER_COUNTS' }),
  order: (id: number): Key => ({ PK: `ORDER#${id}`, SK: 'ORDER' }),
  /** GSI1 a customer's orders, GSI2 a customer's orders of one event; both sorted by purchase time. */
  orderIndexes: (customerId: number, eventId: number, purchasedDate: string, id: number) => ({
    GSI1PK: `CUSTOMER_ORDERS#${customerId}`,
    GSI1SK: `${purchasedDate}#${sortableId(id)}`,
    GSI2PK: `CUSTOMER_EVENT_ORDERS#${customerId}#${eventId}`,
    GSI2SK: `${purchasedDate}#${sortableId(id)}`,
  }),
  customerOrdersIndex: (customerId: number) => `CUSTOMER_ORDERS#${customerId}`,
  customerEventOrdersIndex: (customerId: number, eventId: number) => `CUSTOMER_EVENT_ORDERS#${customerId}#${eventId}`,
  /** GSI3 an order's tickets, GSI4 a customer's tickets (sparse: set and not deleted, like GSI1/GSI2 of tickets). */
  orderTicketIndex: (orderId: number, ticketId: number) => ({ GSI3PK: `ORDER_TICKETS#${orderId}`, GSI3SK: `TICKET#${sortableId(ticketId)}` }),
  customerTicketIndex: (customerId: number, ticketId: number) => ({ GSI4PK: `CUSTOMER_TICKETS#${customerId}`, GSI4SK: `TICKET#${sortableId(ticketId)}` }),
  orderTicketsIndex: (orderId: number) => `ORDER_TICKETS#${orderId}`,
  customerTicketsIndex: (customerId: number) => `CUSTOMER_TICKETS#${customerId}`,
  /** The one payment processor configuration (public settings only; secrets live in Secrets Manager). */
  paymentProcessor: { PK: 'PAYMENT_PROCESSOR', SK: 'PAYMENT_PROCESSOR' } as Key,

  /** A ticket's required waivers: Query `EVENT#<eventId>` by the event-wide prefix and by its type's. */
  waiver: (eventId: number, ticketTypeId: number | null, id: number): Key => ({
    PK: `EVENT#${eventId}`,
    SK: ticketTypeId === null ? `WAIVER#EVENT#${sortableId(id)}` : `WAIVER#TYPE#${sortableId(ticketTypeId)}#${sortableId(id)}`,
  }),
  eventWaiversPrefix: 'WAIVER#EVENT#',
  typeWaiversPrefix: (ticketTypeId: number) => `WAIVER#TYPE#${sortableId(ticketTypeId)}#`,
  waiverVersion: (waiverId: number, hash: string): Key => ({ PK: `WAIVER#${waiverId}`, SK: `VERSION#${hash}` }),
  /** A ticket's signatures: one Query of `TICKET#<id>` by this prefix. */
  waiverSignature: (ticketId: number, waiverId: number): Key => ({ PK: `TICKET#${ticketId}`, SK: `WAIVER_SIGNATURE#${sortableId(waiverId)}` }),
  waiverSignaturesPrefix: 'WAIVER_SIGNATURE#',
};

/**
 * Partition-key patterns (IAM `StringLike`) of the items the public rows write, for their
 * `uses.tableWrites` (shared/routes.ts): the same spellings as the builders above.
 */
export const partitionPatterns = {
  administrators: 'ADMIN#*',
  oauthLogins: 'OAUTH_LOGIN#*',
  resetTokens: 'RESET_TOKEN#*',
  rateWindows: 'RATE#*',
  logKey: 'LOG_KEY',
  customers: 'CUSTOMER#*',
  customerEmails: 'UNIQUE#CUSTOMER_EMAIL#*',
  emailVerifications: 'EMAIL_VERIFICATION#*',
} as const;
