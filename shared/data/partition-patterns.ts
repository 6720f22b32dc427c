/**
 * Partition-key patterns (IAM `StringLike`) of the items the public rows write, for their
 * `uses.tableWrites` (shared/routes.ts): the same spellings as the builders in keys.ts.
 */
export const partitionPatterns = {
  administrators: 'ADMIN#*',
  oauthLogins: 'OAUTH_LOGIN#*',
  resetTokens: 'RESET_TOKEN#*',
  rateWindows: 'RATE#*',
  logKey: 'LOG_KEY',
  customers: 'CUSTOMER#*',
  /** The customers' id sequence (the sign-up allocates an id). */
  customerSequence: 'SEQUENCE#CUSTOMER',
  customerEmails: 'UNIQUE#CUSTOMER_EMAIL#*',
  emailVerifications: 'EMAIL_VERIFICATION#*',
  // The Stripe webhook's (a paid checkout: its order, reservation, stock, and the tickets issued with their
  // list entries, statistics and history, in the ticket's and its event's partitions; the customer's counts).
  orders: 'ORDER#*',
  reservations: 'RESERVATION#*',
  reservationDue: 'RESERVATION_DUE#*',
  /** A paid reservation's tickets leave its network's count of held ones. */
  networkHolds: 'NETWORK_HELD#*',
  stock: 'STOCK#*',
  tickets: 'TICKET#*',
  ticketSequence: 'SEQUENCE#TICKET',
  barcodes: 'UNIQUE#BARCODE#*',
  events: 'EVENT#*',
  /** An event's counts a sale moves, each shard its own partition key (statistics, purchase counts). */
  ticketCounts: 'TICKET_COUNTS#*',
  /** An event's list positions a sale moves, each shard its own partition key. */
  ticketPositions: 'TICKET_POSITIONS#*',
  // The staff's order counts an order's status move keeps (order-status.ts).
  eventOrderCounts: 'EVENT_ORDER_COUNTS#*',
  allOrderCounts: 'ALL_ORDER_COUNTS#*',
} as const;
