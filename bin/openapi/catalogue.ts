import { MAX_STATS_EVENTS, SINGLE_TICKET_INCLUDES, TICKET_INCLUDES } from '#shared/domain/ticket';
import { OLDER_TICKET_INCLUDES } from '#shared/domain/older-ticket-list';
import { DEFAULT_LIMIT, MAX_LIMIT } from '#shared/http/paging';
import type { RouteKey } from '#shared/routes';

/**
 * The documentation text of each route, keyed by route key: summaries, descriptions,
 * parameter descriptions, 409 reasons, the statuses the middy stack cannot infer, and
 * request examples. Build-time only (bin/openapi/): kept out of shared/routes.ts and the
 * handlers, which every function bundles. test/unit/openapi.test.ts checks that every
 * row has an entry and no entry is stale.
 */
export interface RouteDoc {
  summary: string;
  description?: string;
  /** Descriptions of this route's parameters, over the shared ones in PARAMETERS. */
  parameters?: Record<string, string>;
  /** The `reason` values of the route's 409 answers (besides `request_in_flight` on idempotent rows). */
  conflicts?: readonly string[];
  /** Problem statuses the row and schemas do not imply (e.g. 401 from a login, 404 from a route without ids). */
  errors?: readonly (401 | 404)[];
  /** A request body example where the spec leaves the body open. */
  example?: unknown;
}

/** Parameter descriptions shared by every route that has the parameter. */
export const PARAMETERS: Record<string, string> = {
  id: 'The resource id (a positive integer).',
  ticketId: 'The ticket id (a positive integer).',
  eventId: 'The event id (a positive integer).',
  _limit: `Page size, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`,
  _offset: 'How many entries to skip (default 0).',
  result: 'What the answer carries: `none` (204, no body), `id` (the ids, default) or `object` (the whole resources).',
};

/** The tags: the first segment of each handler's module path. */
export const TAGS: Record<string, string> = {
  auth: 'Sign-in and sessions of administrators: identity-provider mode (`/auth/login`, callback, logout) or legacy mode (`/auth/legacy/*`), chosen by `SITE_AUTH_METHOD`.',
  'shipping-method': 'Shipping methods, one by one or in bulk (`{ count, data }` bodies, one result entry per item).',
  tickets: 'Tickets by event: lists, check-in at the gate, transfers, waivers, profile photos, statistics.',
  ticket:
    'The older ticket routes used by integrations: the same tickets in the older shape, claims, the states route.',
  'my-account': "The customer portal: the customer's own account, catalogue and orders, with a customer token.",
};

const list = (values: readonly string[]) => values.map((value) => `\`${value}\``).join(', ');

/** Why a ticket's state change is refused (shared/domain/ticket-states.ts `StateRefusal`). */
const STATE_REFUSALS = [
  'checked_in',
  'cancelled',
  'transferred',
  'deleted',
  'upgraded',
  'withdrawn',
  'use_check_in',
  'use_transfer',
  'not_admissible',
  'no_way_back',
] as const;
/** Unique values a ticket change can collide on (shared/data/ticket-changes.ts), and a write that lost a race. */
const TICKET_WRITE = ['sold_out', 'bib_taken', 'barcode_taken', 'concurrent_update'] as const;
/** Why a claim is refused (shared/domain/claim.ts `ClaimRefusal`). */
const CLAIM_REFUSALS = [
  'deleted',
  'transferred',
  'withdrawn',
  'cancelled',
  'checked_in',
  'claim_open',
  'already_claimed',
  'no_open_claim',
] as const;
/** Why the gate refuses a scan (shared/domain/check-in.ts `RefusalReason`). */
const SCAN_REFUSALS = ['already_checked_in', 'cancelled', 'transferred', 'withdrawn', 'not_valid_for_event'] as const;

const SIGN_IN_MODE = 'Answers 403 when the other sign-in mode (`SITE_AUTH_METHOD`) is active.';
const EVENT_SCOPE = 'An administrator limited to some events gets 404 for anything outside them.';

export const CATALOGUE: Record<RouteKey, RouteDoc> = {
  'POST /auth/login': {
    summary: 'Start an identity-provider sign-in',
    description: `Answers the hosted-UI authorization URL to send the browser to, and sets the short-lived login cookie the callback checks. ${SIGN_IN_MODE} (\`error=vendor_user_restricted\`).`,
  },
  'POST /auth/vendor/login': {
    summary: 'Start a vendor sign-in (deprecated)',
    description: `As \`POST /auth/login\`, with the vendor channel flagged in the state. ${SIGN_IN_MODE}`,
  },
  'GET /auth/callback': {
    summary: 'Finish an identity-provider sign-in',
    description:
      'Where the identity provider sends the browser back. Always a redirect: to the admin UI with the auth cookie set, or with `?error_code=...` when the sign-in is refused.',
    parameters: {
      code: 'The authorization code from the identity provider.',
      state: 'The signed login state from `POST /auth/login`.',
      error: "The identity provider's error code, when it refused the sign-in.",
    },
  },
  'POST /auth/logout': {
    summary: 'Sign out (identity provider)',
    description:
      "Ends every session of the caller, clears the auth cookie and answers the identity provider's logout URL.",
    parameters: {
      return_to: 'Where the identity provider sends the browser after its logout; one of the admin origins.',
    },
  },
  'POST /auth/change-password': {
    summary: 'Mail a password-reset link (identity provider)',
    description: 'Asks the identity provider to mail the caller a password-reset code. Rate-limited per administrator.',
  },
  'GET /auth/me': { summary: 'The signed-in administrator', description: 'Profile and permissions of the caller.' },
  'GET /auth/me2': { summary: 'The signed-in administrator (deprecated)', description: 'Identical to `GET /auth/me`.' },
  'POST /auth/refresh': {
    summary: 'Refresh the token',
    description:
      'A new token (and auth cookie) for a still-valid session, with the permissions and event scope re-read.',
  },
  'POST /auth/legacy/login': {
    summary: 'Sign in with login and password (legacy)',
    description: `Checks the service's own password records; throttled per login and per client address (429). ${SIGN_IN_MODE}`,
    errors: [401],
  },
  'POST /auth/legacy/logout': {
    summary: 'Sign out (legacy)',
    description: 'Ends every session of the caller and clears the auth cookie.',
  },
  'POST /auth/legacy/change-password': {
    summary: 'Change the password (legacy)',
    description: 'Checks the old password, sets the new one and ends every other session.',
    conflicts: ['password_changed'],
  },
  'POST /auth/legacy/forgot-password': {
    summary: 'Mail a password-reset token (legacy)',
    description: 'The same answer whether or not the account exists. Limited per address and per client (429).',
  },
  'POST /auth/legacy/reset-password': {
    summary: 'Reset the password with a mailed token (legacy)',
    description: 'The token is single-use, valid 24 hours, and bound to the administrator who asked for it.',
    conflicts: ['password_changed'],
  },

  'GET /shipping-method': {
    summary: 'List shipping methods',
    parameters: { name: 'Only methods whose name contains this text (case-insensitive).' },
  },
  'GET /shipping-method/{id}': { summary: 'Get a shipping method' },
  'POST /shipping-method': { summary: 'Create a shipping method' },
  'PATCH /shipping-method/{id}': { summary: 'Update a shipping method', description: 'Only the fields sent change.' },
  'DELETE /shipping-method/{id}': { summary: 'Delete a shipping method' },
  'POST /shipping-method/bulk-read': {
    summary: 'Read shipping methods by id',
    description: 'One result entry per id, in request order; a missing id fails alone.',
  },
  'POST /shipping-method/bulk-create': {
    summary: 'Create shipping methods',
    description:
      'Each item is a create body, validated on its own: a bad item fails alone (its entry carries `error`).',
  },
  'POST /shipping-method/bulk-update': {
    summary: 'Update shipping methods',
    description: 'Each item is `{ id, data }` with `data` an update body; a bad or missing item fails alone.',
  },
  'POST /shipping-method/bulk-delete': {
    summary: 'Delete shipping methods',
    description: 'One result entry per id; a missing id fails alone.',
  },

  'GET /tickets': {
    summary: 'List tickets of events',
    description: `The named events' tickets in id order; \`ticket_types\` alone lists their events'; no event named lists every event the caller may see, newest first. \`totalCount\` is exact. Paged by \`_limit\` with \`_offset\` (any depth) or the \`_cursor\` of the previous page. ${EVENT_SCOPE}`,
    parameters: {
      event: 'One event id.',
      events: 'Comma-separated event ids (at most 20).',
      accessEvents:
        'Comma-separated event ids the tickets give access to, directly or through an access package (at most 20).',
      teams: "Comma-separated team ids; `0` means no team. A team is one event's: name the events too.",
      ticket_types: 'Comma-separated ticket type ids.',
      exclude_process_states: 'Comma-separated `processState` codes to leave out (`4` leaves out cancelled tickets).',
      _include: `Comma-separated expansions among ${list(TICKET_INCLUDES)}.`,
      _cursor: 'The `next` of the previous page (not with `_offset`); `_offset` also works at any depth.',
    },
    errors: [404],
  },
  'GET /tickets/check-in-stats': {
    summary: 'Check-in statistics of events',
    description: `Sold and checked-in counts per event, kept as counters. ${EVENT_SCOPE}`,
    parameters: { events: `Comma-separated event ids (at most ${MAX_STATS_EVENTS}).` },
    errors: [404],
  },
  'GET /tickets/{id}': {
    summary: 'Get a ticket',
    description: EVENT_SCOPE,
    parameters: {
      _include: `Comma-separated expansions among ${list(SINGLE_TICKET_INCLUDES)}.`,
      history_limit: `With \`_include=history\`: history entries per page, newest first, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`,
      history_offset: 'With `_include=history`: how many history entries to skip.',
    },
  },
  'PATCH /tickets/{id}': {
    summary: 'Update a ticket',
    description: `Only the fields sent change; state changes follow the ticket state machine (409 with its \`reason\`). ${EVENT_SCOPE}`,
    conflicts: [...STATE_REFUSALS, ...TICKET_WRITE],
  },
  'DELETE /tickets/{id}': {
    summary: 'Delete a ticket',
    description: `Soft delete: the ticket leaves lists and statistics. ${EVENT_SCOPE}`,
    conflicts: [...STATE_REFUSALS, 'concurrent_update'],
  },
  'POST /tickets/bulk-delete': {
    summary: 'Delete tickets',
    description: 'Each id on its own: the answer says, per id, whether it was deleted or why not.',
  },
  'POST /tickets/{id}/check-in': {
    summary: 'Check a ticket in (scan)',
    description: `Admits the ticket at its event (or at \`event\` for an access package) once; a refused scan is 409 with its \`reason\` (and \`firstScan\` when already checked in). ${EVENT_SCOPE}`,
    parameters: { event: 'The event being entered, for a ticket giving access to several events (access packages).' },
    conflicts: [...SCAN_REFUSALS, 'concurrent_update', 'idempotency_key_reused'],
  },
  'POST /tickets/{id}/transfer': {
    summary: 'Transfer a ticket',
    description: `To another type or event: the original is marked transferred and the answer is the new ticket. Without a new type, the attendee fields change in place. ${EVENT_SCOPE}`,
    // idempotency_key_reused: the key's committed answer belongs to another ticket (shared/data/ticket-answers.ts).
    conflicts: [...STATE_REFUSALS, ...TICKET_WRITE, 'idempotency_key_reused'],
    example: {
      eventId: 15,
      typeId: 42,
      attendee: {
        partyMember: 'Ada',
        partyMemberLastName: 'Lovelace',
        emailAddress: 'ada@example.com',
        attendeeQuestions: [{ questionId: 7, answerText: 'M' }],
      },
    },
  },
  'GET /tickets/{id}/waivers': {
    summary: "A ticket's waivers",
    description: EVENT_SCOPE,
    parameters: { signedStatus: 'Only the `signed` or only the `unsigned` waivers.' },
  },
  'POST /tickets/{id}/sign-waivers': {
    summary: 'Sign waivers of a ticket',
    description: `One signature (text, PNG/JPEG image as base64, or SVG) for one or more waivers; without \`waiverIds\`, every unsigned waiver. ${EVENT_SCOPE}`,
    conflicts: ['concurrent_update'],
    example: { waiverIds: [3, 4], signature: { type: 'text', text: 'Ada Lovelace' }, signerName: 'Ada Lovelace' },
  },
  'POST /tickets/{id}/profile-photo': {
    summary: "Upload a ticket's profile photo",
    description: `\`multipart/form-data\` with the image in the \`file\` field (PNG or JPEG, re-encoded); stores its public URL on the ticket. ${EVENT_SCOPE}`,
    conflicts: ['concurrent_update'],
  },
  'DELETE /tickets/{id}/profile-photo': {
    summary: "Remove a ticket's profile photo",
    description: EVENT_SCOPE,
    conflicts: ['concurrent_update'],
  },

  'GET /ticket/{id}': { summary: 'Get a ticket (older shape)', description: EVENT_SCOPE },
  'GET /ticket/{ticketId}/answers': { summary: "A ticket's attendee answers", description: EVENT_SCOPE },
  'GET /ticket/{ticketId}/is-bib-available/{bib}': {
    summary: "Is a bib number free in the ticket's event",
    description: 'Free, or held by this same ticket.',
    parameters: { bib: 'The bib number (letters, digits, `_` or `-`, at most 20).' },
  },
  'GET /ticket': {
    summary: 'List tickets (older shape)',
    description: `Any filters among the ids, \`barcode\`, \`search\` and the time ranges (a purchase range needs \`eventId\` or \`typeId\`); none lists every event the caller may see, newest first. Paged by \`_limit\` with \`_offset\` or the \`_cursor\` of the previous page (\`next\`). A page it cannot fill within one bounded read is a 400 naming narrower filters, never a short page. ${EVENT_SCOPE}`,
    parameters: {
      orderId: 'Tickets of this order.',
      eventId: 'Tickets of this event.',
      typeId: 'Tickets of this ticket type.',
      customerId: 'Tickets of this customer.',
      barcode: 'The ticket with this barcode.',
      search:
        "Words (each at least 2 characters) that start words of the attendee's first or last name, email address, barcode or bib; case and accents ignored; alone, across the events the caller may see.",
      purchasedFrom: 'Bought at or after this instant (ISO 8601, or a date: its first moment).',
      purchasedTo: 'Bought at or before this instant (ISO 8601, or a date: its last moment).',
      updatedFrom: 'Changed at or after this instant (ISO 8601, or a date): the sync of integrations.',
      _cursor:
        'The `next` of the previous page of the same query (not with `_offset`): the sync follows it until it is null.',
      updatedTo: 'Changed at or before this instant (ISO 8601, or a date: its last moment).',
      _include: `Comma-separated expansions among ${list(OLDER_TICKET_INCLUDES)}.`,
    },
    errors: [404],
  },
  'POST /ticket/{ticketId}/claim': {
    summary: 'Send a ticket to be claimed',
    description: `Opens a claim and mails the claimant a link. ${EVENT_SCOPE}`,
    conflicts: [...CLAIM_REFUSALS, 'concurrent_update'],
  },
  'POST /ticket/{ticketId}/claimant': {
    summary: 'Change the claimant of an open claim',
    description: `Mails the new claimant a new link; the old link stops working. ${EVENT_SCOPE}`,
    conflicts: [...CLAIM_REFUSALS, 'concurrent_update'],
    example: { claimantEmail: 'grace@example.com', claimantuserId: 'crm-20431' },
  },
  'GET /ticket/{id}/is-a-claim': { summary: 'Was a ticket sent as a claim', description: EVENT_SCOPE },
  'GET /ticket/{id}/is-claimed': { summary: 'Was a ticket claimed', description: EVENT_SCOPE },
  'GET /ticket/{ticketId}/claim-info': { summary: "A ticket's claim", description: EVENT_SCOPE },
  'POST /ticket/{ticketId}/states': {
    summary: "Set a ticket's states",
    description: `The explicit state route: restores a ticket, and undoes a check-in for callers holding \`checkin:undo\`. Each field follows the ticket state machine (409 with its \`reason\`). ${EVENT_SCOPE}`,
    conflicts: [...STATE_REFUSALS, ...TICKET_WRITE],
    example: { processState: 1, withdrawnState: 'none' },
  },

  'PUT /my-account': {
    summary: 'Customer sign-in',
    description:
      'Answers a customer token (and sets the auth cookie); throttled per login and per client address (429). A first sign-in may carry the emailed verification token.',
    errors: [401],
    conflicts: ['email_taken'],
    example: { login: 'ada@example.com', password: 'correct horse battery staple' },
  },
  'POST /my-account': {
    summary: 'Create a customer account',
    description: 'By an administrator who manages customers; the customer confirms the address before signing in.',
    conflicts: ['email_taken'],
    example: { email: 'ada@example.com', password: 'correct horse battery staple', name: 'Ada Lovelace' },
  },
  'GET /my-account': { summary: "The customer's account" },
  'PATCH /my-account': {
    summary: "Update the customer's account",
    description: 'Only the fields sent change; a new email address is confirmed by mail first (limited per day: 429).',
    conflicts: ['email_taken'],
    example: {
      emailAddress: 'ada.lovelace@example.com',
      useInternationalShippingAddress: false,
      primary: "12 St James's Square, London",
    },
  },
  'PUT /my-account/email': {
    summary: 'Mail the customer their details',
    description:
      "Account details, an order confirmation or the tickets, to the account's own address only; limited per hour (429).",
  },
  'GET /my-account/event': {
    summary: 'Events the customer can see',
    parameters: {
      title: 'Exact title, or a pattern with `%` wildcards (at most 10).',
      search: 'Text in the title, description, venue or venue address; `%` is a wildcard there too (at most 10).',
      fromEventStart: 'Events starting after this Unix time in seconds; `false` for no bound.',
      toEventStart: 'Events starting before this Unix time in seconds; `false` for no bound.',
      return: '`orders`: only events the customer bought tickets for; `all` (default): every match.',
    },
  },
  'GET /my-account/ticket-type/{eventId}': { summary: 'Ticket types of an event' },
  'GET /my-account/wave-time/{eventId}': { summary: 'Wave times of an event' },
  'GET /my-account/orders': {
    summary: "The customer's orders",
    parameters: {
      event: 'Comma-separated event ids (at most 10).',
      ticketType: 'Comma-separated ticket type ids (at most 20).',
      fromPurchaseDate: 'Bought on or after this date or instant.',
      toPurchaseDate: 'Bought on or before this date (its last moment) or instant.',
      includeTickets: "Include each order's tickets.",
      includeTrans: "Include each order's transactions.",
      includeAnswers: 'Include the attendee answers of orders and tickets.',
    },
  },
  'GET /my-account/payment-processor': { summary: "The account's payment processor", errors: [404] },
  'GET /my-account/upgrades/{ticketId}': {
    summary: 'Upgrade options of a ticket',
    description: "Only the customer's own tickets; another's is 404.",
  },
  'POST /my-account/claim': {
    summary: 'Accept a claimed ticket (ours)',
    description:
      "Not in the spec: the claimant, signed in, presents the token of the mailed claim link (the portal reads it from the link's `#token=` fragment). " +
      "The ticket moves to the caller's account and is answered. An unknown, spent or expired token is 400 naming `body.token`; a claim no longer open is 409 with its reason; of two customers racing on one token exactly one wins.",
    conflicts: ['deleted', 'transferred', 'withdrawn', 'cancelled', 'checked_in', 'no_open_claim', 'concurrent_update'],
  },
};
