import { MAX_SCOPE_SYNC_EVENTS } from '#shared/lists/rules';
import { OLDER_TICKET_INCLUDES } from '#shared/tickets/domain/older-ticket-view';
import { CLAIM_REFUSALS, type Entries, EVENT_SCOPE, list, md, STATE_REFUSALS, table, TICKET_WRITE } from './common.ts';

/** The `ticket` tag: the older family, and claims. */
export const TICKET_TAG = md(
  "The spec's older ticket routes, used by integrations: the same tickets, state machine (see the `tickets` tag), history and errors as `/tickets`. Single answers use this family's `{count, data}` envelope; the ticket inside is exactly what `GET /tickets/{id}` answers.",
  "**Claims.** A ticket can be sent to someone else to claim (a team captain's spare tickets). The claim lives on the ticket (`_include=change_status` shows it as `ticketClaim`; history entries `claim`, `claimant`, `claimed`) and never moves the ticket's states. Its `state`: `open` (sent, waiting), `claimed` (accepted: the ticket is on the claimant's account) or `cancelled` (the ticket was cancelled, transferred, withdrawn or deleted while the claim was open; read from the ticket, so a ticket restored before anyone accepted has its claim open again).",
  'The link is `<portal>/claim#token=…`: 32 random bytes in the URL fragment, which browsers never send, so no log holds it; only its SHA-256 is stored, valid 14 days while its claim is open with that claimant. The mail goes after the commit; a failed send is logged (sending to the same address again through `/claimant` sends a fresh link). Both mailing routes are capped before anything is written: **5 claim mails per ticket and 100 per staff member in any 24 hours** (429 with `Retry-After`; a refusal changes nothing and mails nobody). The claimant accepts with `POST /my-account/claim` (ours: the spec has no accepting route).',
);

const LIST_SERVING = table(
  ['present', 'served by', 'order'],
  [
    ['`barcode`', "the barcode's own item", '—'],
    ['`orderId`', "the order's tickets (at most 50)", 'id'],
    ['`customerId`', "the customer's tickets", 'id'],
    [
      '`updatedFrom` / `updatedTo`',
      "the update-time index (with `eventId` or `typeId`, that event's own): **the sync**, deleted tickets included (`deleted: 1`)",
      '`updated`, id',
    ],
    ['`search`', 'the search entries', 'token, id'],
    [
      '`eventId` or `typeId` with a purchase range',
      "the event's purchases (with `typeId`, the type's own)",
      '`purchasedDate`, id',
    ],
    ['`typeId`', "the type's tickets", 'id'],
    ['`eventId`', "the event's tickets", 'id'],
    ['no filter', "`GET /tickets`' list across events", 'newest first'],
  ],
);

export const TICKET = {
  'GET /ticket/{id}': {
    summary: 'Get a ticket (older shape)',
    description: `\`{count: 1, data: ticket}\`; a deleted or unknown ticket is 404. ${EVENT_SCOPE}`,
  },
  'GET /ticket/{ticketId}/answers': {
    summary: "A ticket's attendee answers",
    description: `\`{count, data: [{questionId, question, required, answerId, answer, answerText, displayText, dynamicQuantity, sku}]}\` in the event's question order; \`answer\` is the chosen option's text or the free text; a question since removed keeps its answer with \`question: null\`. ${EVENT_SCOPE}`,
  },
  'GET /ticket/{ticketId}/is-bib-available/{bib}': {
    summary: "Is a bib number free in the ticket's event",
    description: `\`{available}\` (no envelope, as the spec shows). A bib is taken when another ticket of the same event holds it (not deleted, cancelled or transferred); the asking ticket's own bib is available to it. The spec types \`bib\` as an integer: numbers are a subset of what is accepted (bibs such as \`A-12\` exist). ${EVENT_SCOPE}`,
    parameters: { bib: 'The bib number (letters, digits, `_` or `-`, at most 20).' },
  },
  'GET /ticket': {
    summary: 'List tickets (older shape)',
    description: md(
      'Filters combine with AND; unknown parameters are a 400. Times are an ISO 8601 date or date-time (no offset = UTC) or unix seconds, both ends inclusive (a date alone as a `…To` is the end of that day); a bad, impossible (`2026-02-30`) or inverted range is a 400 naming it. A purchase range needs `eventId` or `typeId` (400): the purchase index is kept per event. The read is served by the first filter present in this order; the others are applied on top:',
      LIST_SERVING,
      `Outside the sync, lists hold live tickets only. \`eventId\` alone, and \`typeId\` with or without \`eventId\`, are \`GET /tickets\`' lists: any \`_offset\`, \`totalCount\` exact, \`next\` by id. \`eventId\` and/or \`typeId\` with a purchase range alone (\`purchasedFrom\` and/or \`purchasedTo\`) is counted (the event's or the type's sales) per month, day, hour, minute and second of purchase: any \`_offset\`, \`totalCount\` exact, \`next\` in purchase order (only where one second holds more than 1,000 tickets before a bound or a position is it read as below). \`customerId\` alone answers the customer's kept count as \`totalCount\` (exact), any \`_offset\` (from the customer's kept positions by id), and an empty page at or past the end; to an event-scoped caller it is read as below. \`barcode\` and \`orderId\` (an order holds at most 50 tickets), and \`customerId\` of a customer holding at most 100 live tickets (with other filters, or to an event-scoped caller), are read whole with any other filters: \`totalCount\` exact on every page, any \`_offset\`. Every other filter set reads its serving index from the start (or after \`_cursor\`) and at most 1,000 index items: a page it cannot fill within that is a **400** naming narrower filters, and \`_offset + _limit\` past 1,000 is a 400 naming \`_cursor\`, never a short page. There \`totalCount\` is exact when the read reached the end, else it counts the matches read and the answer adds \`totalCountIsEstimate: true\`.`,
      "**Search.** A ticket's tokens are the words of its attendee's first and last name, its email's local part (its words and the whole of it), its barcode and its bib, folded (lower case, accents removed: `angstrom` finds `Ångström`). A search is one or more words of at least 2 characters; a ticket matches when every word starts one of its tokens (a word with `@` or `.` must start the email address), or when the search is its id. Search alone reads across the events the caller may see. No infix or fuzzy matching (`nkwo` does not find `Okonkwo`); a combination of words rarer than about 1 in 40 of the longest word's holders answers the 400 naming narrower filters rather than a short page.",
      `**The sync, for integrators.** \`GET /ticket?updatedFrom=<T>&_limit=100\`, then the same query with \`_cursor=<next>\` until \`next\` is null; keep the largest \`updated\` seen as the next T. \`updatedFrom\` is inclusive, so drop (id, updated) pairs you already hold; treat \`deleted: 1\` as a removal. Each page reads only what changed since T, and every page is whole. Add \`eventId\` to sync one event: its page reads only that event's changes, however busy the others are. An administrator limited to some events syncs the changes of its events' own tickets (not those of other events granted into them), read the same way from theirs when the scope holds at most ${MAX_SCOPE_SYNC_EVENTS} events; a wider scope should sync each event by \`eventId\`, since without it the scope is applied to every event's changes, and a page the scope's few cannot fill within 1,000 is the 400 described above.`,
      `Expansions (\`_include\`): \`costs\` \`{price, taxAmount, gratuityAmount, paidUponCheckout, total}\`; \`refundProtect\` \`{status, amount}\`; \`change\` the claim; \`promoter\` the order's \`affiliate\` or null; \`waveTime\` \`{id, name, startTime, capacity}\` or null; \`user\` the customer \`{id, name, emailAddress}\` or null; \`waivers\` as \`GET /tickets/{id}/waivers\` answers them (only with \`_limit\` ≤ 25, else 400). For an administrator limited to some events, an \`eventId\` (or a \`typeId\` of an event) outside the scope is an empty page, and the other filters list only the tickets the scope reaches.`,
    ),
    parameters: {
      orderId: 'Tickets of this order.',
      eventId: 'Tickets of this event.',
      typeId: 'Tickets of this ticket type.',
      customerId: 'Tickets of this customer.',
      barcode: 'The ticket with this barcode.',
      search:
        "Words (each at least 2 characters, at most 100 in all) that start words of the attendee's first or last name, email address, barcode or bib; case and accents ignored; alone, across the events the caller may see.",
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
    description: `Opens a claim and mails the claimant the link (see the tag for the link and the mail caps); answers \`{count: 1, data: claimInfo}\`. \`claimantEmail\` at most 254 characters, lower-cased; \`claimantuserId\` (the spec's spelling) at most 100, may be empty, answered as \`claimantUserId\`. A cancelled claim may be replaced; an open or claimed one may not. ${EVENT_SCOPE}`,
    conflicts: [...CLAIM_REFUSALS, 'concurrent_update'],
  },
  'POST /ticket/{ticketId}/claimant': {
    summary: 'Change the claimant of an open claim',
    description: `**Our body** (the spec shows none): the new \`claimantEmail\`, optionally a new \`claimantuserId\` (kept when left out). Only for an open claim (else 409 \`no_open_claim\`); the old link stops working and the new address gets a new one. ${EVENT_SCOPE}`,
    conflicts: [...CLAIM_REFUSALS, 'concurrent_update'],
    example: { claimantEmail: 'grace@example.com', claimantuserId: 'crm-20431' },
  },
  'GET /ticket/{id}/is-a-claim': {
    summary: 'Was a ticket sent as a claim',
    description: `\`{count: 1, data: true|false}\`: sent as a claim, in any state. ${EVENT_SCOPE}`,
  },
  'GET /ticket/{id}/is-claimed': {
    summary: 'Was a ticket claimed',
    description: `\`{count: 1, data: true|false}\`. ${EVENT_SCOPE}`,
  },
  'GET /ticket/{ticketId}/claim-info': {
    summary: "A ticket's claim",
    description: `\`{count: 1, data: {ticketId, isAClaim, isClaimed, state, claimantEmail, claimantUserId, sentAt, claimedAt}}\`, null and false when it was never a claim (the spec says "true or false"; \`is-a-claim\` and \`is-claimed\` already answer those). ${EVENT_SCOPE}`,
  },
  'POST /ticket/{ticketId}/states': {
    summary: "Set a ticket's states",
    description: `The explicit state route: \`{processState?, transferState?, upgradeState?, withdrawnState?, deleted?}\` with the codes a ticket answers (\`processState\` an integer here; \`withdrawnState\` is ours beside the spec's four: reinstating is a restore too). An unknown code or an empty body is a 400. Each move goes through the state machine's \`states\` path (see the \`tickets\` tag): it restores cancelled, withdrawn and deleted tickets, and undoes a check-in for callers that also hold \`checkin:undo\`. \`deleted: 0\` restores a soft-deleted ticket, its bib back only if still free (else 409 \`bib_taken\`, nothing changed). ${EVENT_SCOPE}`,
    conflicts: [...STATE_REFUSALS, ...TICKET_WRITE],
    example: { processState: 1, withdrawnState: 'none' },
  },
} satisfies Entries;
