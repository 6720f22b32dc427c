import { MAX_STATS_EVENTS, SINGLE_TICKET_INCLUDES, TICKET_INCLUDES } from '#shared/tickets/domain/ticket';
import { TRANSITIONS, type Via } from '#shared/tickets/domain/ticket-transitions';
import { DEFAULT_LIMIT, MAX_LIMIT } from '#shared/request-fields';
import { type Entries, EVENT_SCOPE, list, md, SCAN_REFUSALS, STATE_REFUSALS, table, TICKET_WRITE } from './common.ts';

/** The paths a state change comes through, as a client meets them. */
const VIA: Record<Via, string> = {
  edit: '`PATCH /tickets/{id}`',
  states: '`POST /ticket/{ticketId}/states`',
  check_in: 'check-in',
  undo_check_in: 'the states route with `checkin:undo`',
  transfer: 'transfer',
  delete: 'delete',
  upgrade: 'an upgrade purchase',
  cancel_order: '`POST /orders/{id}/cancel`',
  force_cancel: '`POST /orders/{id}/cancel` with `force`',
};

const show = (value: string | number) => `\`${value}\``;
const effect = ({ sold, checkedIn, cancelled }: { sold: number; checkedIn: number; cancelled: number }) =>
  (
    [
      ['sold', sold],
      ['checked in', checkedIn],
      ['cancelled', cancelled],
    ] as const
  )
    .filter(([, step]) => step !== 0)
    .map(([name, step]) => `${name} ${step > 0 ? '+1' : '−1'}`)
    .join(', ');

/** The state machine, written from shared/tickets/domain/ticket-transitions.ts itself, so it cannot drift. */
const STATE_MACHINE = table(
  ['field', 'move', 'allowed through', 'counts', 'otherwise 409', 'why'],
  TRANSITIONS.map((row) => [
    `\`${row.field}\``,
    `${show(row.from)} → ${show(row.to)}`,
    row.via.length ? row.via.map((via) => VIA[via]).join(', ') : 'never',
    (row.via.length && effect(row.effect)) || '—',
    `\`${row.refusal}\``,
    row.note,
  ]),
);

/** The `tickets` tag: the rules every ticket route shares. */
export const TICKETS_TAG = md(
  'Tickets by event: lists, check-in at the gate, transfers, waivers, profile photos, statistics. Single answers are `{data}` alone, as the spec shows for these routes. The state codes are described on the `Ticket` schema.',
  "**Eligibility.** A ticket is *eligible* when it is not cancelled, transferred, withdrawn or deleted. Eligible tickets hold a place: a ticket type's `sold` counts them and never exceeds its `total` (a change that would is 409 `sold_out`). Deleting is soft: the record stays, the ticket leaves lists, statistics and `GET` (404).",
  '**The state machine.** Every route that changes a ticket asks one table (shared/tickets/domain/ticket-states.ts); a refused move answers 409 with `reason` and `field` and changes nothing. "Counts" are the kept counts the move changes (on an otherwise eligible ticket).',
  STATE_MACHINE,
  'And the rules a gate relies on, checked first: a deleted ticket changes only by being restored (`deleted: 0` through the states route); a transferred original stays transferred (only deletion is allowed: its replacement holds the place); a checked-in ticket cannot be withdrawn, transferred or cancelled, and goes back only by an explicit undo with its own permission; a cancelled ticket cannot be withdrawn, upgraded or transferred until it is restored; a withdrawn ticket cannot be admitted or transferred.',
  '**History.** Every accepted change appends one entry, in the same transaction: `{version, at, actor, eventScope?, action, states, fields, relatedTicketId?}`, `actor` being `admin <id>`, `customer <id>` or `system`, and `eventScope` the events an administrator limited to some events was limited to when making the change (absent for every other actor); entry *n* produced version *n*. `GET /tickets/{id}?_include=history` pages it newest first. Refused changes leave no entry (refused scans are kept as scan records).',
  '**Uniqueness.** A barcode is held by one ticket that is not deleted; a bib by one ticket of an event that is not deleted, cancelled or transferred (a restore takes it back only if it is still free). A change to a taken one is 409 `barcode_taken` / `bib_taken`. A write that lost a race with another writer is re-decided on a fresh read; `concurrent_update` when that keeps failing.',
);

export const TICKETS = {
  'GET /tickets': {
    summary: 'List tickets of events',
    description: md(
      `The tickets of the named events (\`event\`, \`events\`) and the tickets whose type admits to an \`accessEvents\` event (an access package), in id order, narrowed by \`teams\`, \`ticket_types\` and \`exclude_process_states\` (all AND). \`ticket_types\` alone lists those types' events. No event named: every event the caller may see, **newest first** (only \`exclude_process_states\` combines with it); \`teams\` without events is a 400 (a team belongs to one event). For an administrator limited to some events, the event filters are cut to that scope: nothing left is an empty page (200), not 404.`,
      "**`totalCount`** comes from counts kept in each ticket change's own transaction, so it is exact for: the events alone; every event; `teams` or `ticket_types` (any number of values) or both (at most 100 team × type pairs, else 400); each with or without `exclude_process_states`; and `accessEvents`, alone or with teams and types, also beside other events: a ticket granted into several listed events, or also one of their own, counts once (beside other events the granted tickets are counted per granting ticket type). Only where that takes more than 100 counters (granting types × teams), or an access event is granted into by more than 60 ticket types, is `totalCount` exact when the read reached the end, else an upper bound, and the answer adds `totalCountIsEstimate: true`.",
      '**Paging.** Any `_offset` (past the end: an empty page with the exact `totalCount`); a page deep in 100,000 tickets costs about what page 1 does. Every page also answers `next`, the `_cursor` of the following page (null on the last one): the cheapest way through any list. `_cursor` with `_offset` is a 400, and so is a cursor this list did not answer.',
      '**Complete or refused.** One request reads at most 2,000 index items from where its page starts. Matches sparser than that (a rare team × type pair) are read from the id blocks the kept counts say hold them, at most 10,000 items. A page it cannot fill is a **400** naming narrower filters, never a short page that looks like the end; only the `accessEvents` combinations without counts (above) get there in practice (a deep `_offset`, or matches too sparse).',
    ),
    parameters: {
      event: 'One event id.',
      events: 'Comma-separated event ids (at most 20).',
      accessEvents:
        'Comma-separated event ids the tickets give access to, directly or through an access package (at most 20).',
      teams:
        "Comma-separated team ids (at most 50); `0` means no team. A team is one event's: name the events too (`event`, `events` or `accessEvents`).",
      ticket_types: 'Comma-separated ticket type ids (at most 50).',
      exclude_process_states: 'Comma-separated `processState` codes to leave out (`4` leaves out cancelled tickets).',
      _include: `Comma-separated expansions among ${list(TICKET_INCLUDES)}.`,
      _cursor: 'The `next` of the previous page (not with `_offset`).',
    },
    errors: [404],
  },
  'GET /tickets/check-in-stats': {
    summary: 'Check-in statistics of events',
    description: `\`{data: {eventIds, soldTickets, checkedInTickets}}\`, exactly as the spec shows, from counters kept in each ticket change's transaction (one read of 10 shards per event). \`checkedInTickets\` counts the tickets checked in for any of the named events (at their own event, or scanned there through an access package): a ticket that matches several of them counts once. ${EVENT_SCOPE}`,
    parameters: { events: `Comma-separated event ids (at most ${MAX_STATS_EVENTS}).` },
    errors: [404],
  },
  'GET /tickets/{id}': {
    summary: 'Get a ticket',
    description: `\`_include=history\` adds the ticket's history (newest first, paged by \`history_limit\` and \`history_offset\`; any page is one bounded read); \`_include=checkInInfo\` its scans \`{scannedTimestamp, scans: [{kind, eventId, eventName, scannedTimestamp}]}\`. A deleted ticket is 404. ${EVENT_SCOPE}`,
    parameters: {
      _include: `Comma-separated expansions among ${list(SINGLE_TICKET_INCLUDES)}.`,
      history_limit: `With \`_include=history\`: history entries per page, newest first, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`,
      history_offset: 'With `_include=history`: how many history entries to skip.',
    },
  },
  'PATCH /tickets/{id}': {
    summary: 'Update a ticket',
    description: `Only the fields sent under \`data\` change. \`processState\` is a string code here (\`"4"\` cancels), \`withdrawnState\` withdraws; both follow the state machine (409 with its \`reason\`). The event and the type change only by transfer (a different \`eventId\` or \`typeId\` is a 400); \`teamId\` must be a team of the ticket's event; answers must fit the event's questions. ${EVENT_SCOPE}`,
    conflicts: [...STATE_REFUSALS, ...TICKET_WRITE],
  },
  'DELETE /tickets/{id}': {
    summary: 'Delete a ticket',
    description: `Soft delete (204): the ticket leaves lists and statistics and \`GET\` answers 404; the record stays and the states route can restore it. ${EVENT_SCOPE}`,
    conflicts: [...STATE_REFUSALS, 'concurrent_update'],
  },
  'POST /tickets/bulk-delete': {
    summary: 'Delete tickets',
    description:
      'Soft-deletes each id on its own (at most 100; the spec\'s nested `{"ids": [[1, 2]]}` is accepted too) and answers `{count, data: [{id, status: "ok"|"error", error?}]}` in request order. An id outside the caller\'s events is reported as not found.',
  },
  'POST /tickets/{id}/check-in': {
    summary: 'Check a ticket in (scan)',
    description: md(
      "No body (none, an empty one or `{}`: generic clients send `{}`; anything else is a 400). `event` names the event being scanned (default: the ticket's own). At its own event an active ticket becomes `processState` 2; at an event its type grants (an access package) the scan is recorded as an access-package scan and `processState` is unchanged; a transfer carries those scans over.",
      `A refused scan is 409 with \`reason\` (\`already_checked_in\` with \`firstScannedTimestamp\`; \`not_valid_for_event\` also for a pending ticket) and is recorded. Send \`Idempotency-Key\` from offline scanners: a retry with the same key answers the first answer (\`Idempotent-Replayed: true\`; after a crash between commit and answer, the committed answer) instead of 409. ${EVENT_SCOPE} The scanned event must be in the scope too.`,
    ),
    parameters: { event: 'The event being entered, for a ticket giving access to several events (access packages).' },
    conflicts: [...SCAN_REFUSALS, 'concurrent_update', 'idempotency_key_reused'],
  },
  'POST /tickets/{id}/transfer': {
    summary: 'Transfer a ticket',
    description: md(
      "All body fields are optional; `typeId` is required when `eventId` names another event, and must belong to it. To a new type or event, one transaction creates the new ticket (new id and barcode, active, `transferredFrom`, the original's `purchasedDate`), marks the original `transferred` (`transferredTo`) and moves `sold` from the old type to the new (409 `sold_out` when full); the answer is the new ticket. Attendee fields are copied and overridden by `attendee`; answers and team are kept only within the same event; bib and chip are not carried over (the bib is freed). Access-package scans are carried over, so a transfer never resets what was scanned.",
      `Same type and event (or none given): the attendee fields change in place. A checked-in, cancelled, withdrawn, transferred or deleted ticket cannot move (409 with its \`reason\`). With an \`Idempotency-Key\`, a retry answers the first answer; the same key on another ticket is 409 \`idempotency_key_reused\`. ${EVENT_SCOPE} A type of an event outside the scope is refused as unknown (400).`,
    ),
    // idempotency_key_reused: the key's committed answer belongs to another ticket (shared/data/idempotent-requests.ts).
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
    description: md(
      "A waiver belongs to an event and is required for every ticket of it, or only for one ticket type's; `kind` is `standard` or `day-of` (signed at the gate). Its text changes by publishing versions, each named by the SHA-256 of its text (`versionHash`).",
      `Answers \`{data: [...]}\`, event-wide waivers first, then the type's, by id: \`{id, title, kind, appliesTo: "event"|"ticket-type", eventId, ticketTypeId, versionHash, signedStatus, signedDate, signedVersionHash}\`. \`signedDate\` is in the event's own offset; \`signedVersionHash\` is the version signed, which stays signed when a newer version is published. ${EVENT_SCOPE}`,
    ),
    parameters: { signedStatus: 'Only the `signed` or only the `unsigned` waivers.' },
  },
  'POST /tickets/{id}/sign-waivers': {
    summary: 'Sign waivers of a ticket',
    description: md(
      'One signature for one or more waivers; answers `{data: ticket}`. `waiverIds` (1 to 100) omitted signs every unsigned waiver of the ticket; an id the ticket does not require is a 400 naming it (`body.waiverIds.<index>`) and nothing is signed. Waivers already signed are skipped (the first signature and date stay). A waiver is signed once per ticket, with the version current at signing.',
      '`signature` is `{type: "text", text}` (1 to 200 characters), `{type: "image", mediaType: "image/png"|"image/jpeg", data}` (base64 or a `data:…;base64,` URL; at most 512 KiB decoded, else 413; the bytes must be the declared type, else 400) or `{type: "svg", svg}` (at most 256 KiB, else 413). SVG is stored sanitised, rewritten from an allowlist of drawing elements and presentation attributes (no scripts, event handlers, links, `<use>`, `<image>`, `foreignObject`, CSS or `url(…)`); SVG that is not one well-formed `<svg>` document, declares a DOCTYPE or entities, or has nothing drawable left is a 400. The whole body is at most 1 MiB (413).',
      `The signature is stored once per signing in the photo bucket under \`signatures/\`, which the photo CDN never serves; its key is not answered. ${EVENT_SCOPE}`,
    ),
    conflicts: ['concurrent_update'],
    example: { waiverIds: [3, 4], signature: { type: 'text', text: 'Ada Lovelace' }, signerName: 'Ada Lovelace' },
  },
  'POST /tickets/{id}/profile-photo': {
    summary: "Upload a ticket's profile photo",
    description: md(
      "`multipart/form-data` with the image in the field `file` (a part with a `filename`); answers `{data: ticket}` with `profilePhoto` set to the photo's public URL. A missing `file`, another field, an empty file or a malformed body is a 400; none of the refusals changes or stores anything.",
      '**JPEG and PNG only**, judged by the bytes (the declared type and file name are ignored): anything else, WebP included, is 415, as is a body that is not `multipart/form-data` or whose boundary has characters other than letters, digits and `-` (a rule of the parser; browsers and common clients send such boundaries). Every photo is **decoded and re-encoded** (JPEG at quality 85, PNG as RGBA), so only the pixels are stored: EXIF (GPS), XMP, comments, text chunks and trailing bytes are dropped; the EXIF orientation is applied first. Bytes that start like an image but do not decode are a 400 naming `body.file`.',
      "**Limits.** At most 5 MiB (413) and 4096 pixels a side (413, `detail` gives the size), judged from the header before anything is decoded; interlaced PNGs above 2,000,000 pixels are refused from their header (413) and inflation is bounded by what the header allows, so a decompression bomb is a 400. Through API Gateway the largest photo that arrives is about 4.4 MB (Lambda's 6 MB payload limit on a base64 body); bigger ones are refused before the function runs, without this API's problem details.",
      `Stored at \`photos/tickets/<id>/<random>.<ext>\`; the previous photo's object is removed. The photo CDN answers with \`X-Content-Type-Options: nosniff\` and \`Content-Security-Policy: default-src 'none'; sandbox\`. The ticket is looked up before the file is decoded: ${EVENT_SCOPE}`,
    ),
    conflicts: ['concurrent_update'],
  },
  'DELETE /tickets/{id}/profile-photo': {
    summary: "Remove a ticket's profile photo",
    description: `Clears \`profilePhoto\` and answers \`{data: ticket}\`; removing the stored object is best-effort (a failure is logged, not answered). ${EVENT_SCOPE}`,
    conflicts: ['concurrent_update'],
  },
} satisfies Entries;
