import { MAX_GRANTS_PER_TYPE, MAX_TICKET_TYPES, MAX_WAVE_TIMES } from '#shared/events/domain/event';
import { MAX_CREATION_ITEMS } from '#shared/events/contract/event';
import { type Entries, md } from './common.ts';

/** The `events` tag: an organiser's path from an empty stage to an event on sale (README "Where we differ from the spec"). */
export const EVENTS_TAG = md(
  "Events and their ticket types, for administrators holding `events:write` (reads: `events:read`). The organiser's path: `POST /events` (a draft, with its types, waves, questions and teams if you have them), `POST /events/{id}/ticket-types` for more types, then `PATCH /events/{id}` with `{\"published\": true}`: the event appears at once in the portal (`GET /my-account/event` with its `inventory`, its types in `GET /my-account/ticket-type/{eventId}`), and is found by its title's and description's words.",
  `Limits: at most ${MAX_TICKET_TYPES} ticket types and ${MAX_WAVE_TIMES} wave times an event, a type grants entry to at most ${MAX_GRANTS_PER_TYPE} other events (an access package), 50 questions, options a question and teams in a creation, and ${MAX_CREATION_ITEMS} types (two each: a type and its stock), grants, teams, waves and waivers (two each) together in one creation (its one transaction, which writes each type's stock too: a type created with many others may start with fewer stock shards than one added on its own, so fewer reservations at once). \`price\` is in the event's \`currency\` (ISO 4217), at most 1,000,000, with no more decimals than that currency is charged in (EUR 2, JPY 0: 1000.5 is a 400 naming the price; KWD 2, as Stripe charges fils only in tens); \`timezone\` an IANA zone; \`start\`, \`onSaleDate\`, \`cutOff\` and wave \`startTime\` ISO-8601 date-times with an offset (stored and answered in UTC); \`cutOff\` after \`onSaleDate\`. Each is a 400 naming the field; unknown fields are a 400.`,
  "Taxes and fees (shared/README.md \"Pricing\"): a type may carry `tax` `{name, rate, inclusive}` (`rate` a percentage from 0 to 100 with at most 3 decimals, 8.875 for a US sales tax; `inclusive`: `price` includes it, as EU consumer prices do, else it is added, as US sales tax is); an event may carry `bookingFee` `{perTicket?, percent?}` (the buyer pays it on every ticket that is not free, shown as its own amount; `perTicket` in the event's currency, `percent` of the tickets' discounted price), `feeTax` (the tax on that fee) and `shippingTax` (the tax on a shipping method's charge). These are the event's settings, not the stage's: one stage sells for organisers in several countries. `null` in a patch removes one. `seller` `{name, address, taxId}` is who sells the event's tickets as its invoices and credit notes name it, numbered in that seller's own gapless sequence (shared/README.md \"Invoices\"); `null` or none: the stage's seller. Every amount a buyer pays is priced from these by the server; a reservation's body carrying a tax, a fee or a discount is a 400.",
  "Every change is one transaction, conditional on the event's `version` (moved by every change of the event or its types): a change that lost a race to another, or a body naming an older `version`, is 409 `stale_version` and changes nothing: read the event again. Each change is recorded with who made it and what changed (`GET /events/{id}/history`); `updated` and `updatedBy` name the last one. An administrator limited to some events reads and edits only those (another event: 404) and cannot create events (403).",
  "Where we differ from pretix and Eventbrite: once an event has tickets its `start` and its `currency` stay as they are (409 `event_has_tickets`): customers' links to the events they ordered are stored under the first, its tickets were sold in the second (`published` changes both ways at any time: unpublishing a sold event hides it from the portal's list and search, except from the customers who hold orders for it); a type's `grants` change only before it sells. Deleting is for an event that never had tickets; unpublish one that has.",
);

export const EVENTS = {
  'POST /events': {
    summary: 'Create an event',
    description:
      'A draft (unpublished) event with its listing fields and, optionally, its ticket types, wave times, attendee questions and teams, in one transaction. Answers 201 `{count: 1, data: event}` with every id. Access packages (`grants`) name events that exist (400 naming the grant otherwise). Unscoped administrators only: 403 for one limited to some events. `maxHeldPerCustomer` (1 to 10, default 10) and `maxHeldPerNetwork` (1 to 1,000, default 40) cap what one customer and one client network may hold of it at once (reservations not yet paid): see `POST /my-account/reservations`.',
    example: {
      title: 'City Marathon 2027',
      start: '2027-04-25T09:00:00+01:00',
      timezone: 'Europe/London',
      currency: 'GBP',
      venue: 'Tower Bridge',
      description: 'Forty-two kilometres along the Thames.',
      onSaleDate: '2026-12-01T09:00:00Z',
      cutOff: '2027-04-20T23:59:00+01:00',
      bookingFee: { perTicket: 1.5 },
      feeTax: { name: 'VAT', rate: 20, inclusive: true },
      ticketTypes: [{ name: 'Runner', price: 59.5, total: 20000, tax: { name: 'VAT', rate: 20, inclusive: true } }],
      waveTimes: [{ name: 'Wave A', startTime: '2027-04-25T09:00:00+01:00', capacity: 5000 }],
      questions: [{ text: 'T-shirt size', required: true, options: [{ text: 'S' }, { text: 'M' }, { text: 'L' }] }],
      teams: [{ name: 'Thames Striders' }],
    },
  },
  'GET /events': {
    summary: 'List events',
    description:
      "By start, then id, walked by `next`: pass it as `_cursor` for the following page (null on the last). `title` is exact and case-sensitive, `%` matching any run of characters (as the portal's). Without `title` or a start window the total is exact (kept counts); otherwise it is exact when the read reached the end, else `totalCountIsEstimate`. A `title` matching too sparsely to fill a page within one read budget is a 400 naming a narrower query (`published=true`, or a start window).",
    parameters: {
      published: '`true`: published events only; `false`: drafts only.',
      fromStart: 'Events starting at or after this ISO-8601 date-time.',
      toStart: 'Events starting at or before this ISO-8601 date-time.',
      title: 'The title, exactly; `%` matches any run of characters.',
      _cursor: 'The `next` of the previous page.',
    },
  },
  'GET /events/{id}': {
    summary: 'Get an event',
    description:
      "The whole event: its ticket types (with `sold` and `total`, in the portal's order), wave times, questions and teams, its `version`, and who changed it last and when.",
  },
  'PATCH /events/{id}': {
    summary: 'Edit or publish an event',
    description:
      "Only the fields sent change. `{\"published\": true}` publishes (409 `no_ticket_types` without a type), `false` unpublishes; the portal's list, its count and its search entries follow in the same transaction (a retitled event is found by its new words, no longer by the old). Send the `version` you read to refuse an edit over someone else's (409 `stale_version`). Once the event has tickets, `start` and `currency` are 409 `event_has_tickets`; a `currency` its types' prices have too many decimals for (JPY for a price of 12.50) is 409 `prices_not_in_currency` with their `typeIds`: change those prices first; `published` still changes both ways (its customers keep seeing it in their `GET /my-account/event`). `reservationMinutes` (1 to 60) is how long a hold lasts unpaid; `maxHeldPerCustomer` (1 to 10) and `maxHeldPerNetwork` (1 to 1,000) cap what one customer and one client network hold at once (a lowered cap refuses new holds past it; holds made before stay until they end). `bookingFee`, `feeTax` and `shippingTax` (the tag's description; `null` removes one) price the holds made from then on: a reservation keeps the figures it was held at. A `bookingFee.perTicket` its currency cannot take, or a `currency` change it does not fit, is a 400 naming `body.bookingFee.perTicket`.",
    conflicts: ['stale_version', 'no_ticket_types', 'event_has_tickets', 'prices_not_in_currency'],
    example: { published: true, version: 2 },
  },
  'DELETE /events/{id}': {
    summary: 'Delete an event',
    description:
      'Only an event that never had tickets (409 `event_has_tickets`: unpublish it instead). Its history stays readable.',
    conflicts: ['stale_version', 'event_has_tickets'],
  },
  'GET /events/{id}/history': {
    summary: "An event's changes",
    description:
      "Newest first: each change's `version`, time, administrator, kind and the fields it changed (`from`, `to`). `next` is the `before` of the following page.",
    parameters: { before: 'Changes before this version (the `next` of the previous page).' },
  },
  'POST /events/{id}/ticket-types': {
    summary: 'Add a ticket type',
    description: `Its stock (one item per 100 tickets, at most 64, each holding its share for reservations) is written and the event's \`capacity\` (the portal's \`inventory.total\`) grows by its \`total\` in the same transaction. At most ${MAX_TICKET_TYPES} an event (409 \`too_many_ticket_types\`). Its access package (\`grants\`) names only events the caller may edit: one outside a scoped administrator's events is the same 400 as one that does not exist.`,
    conflicts: ['stale_version', 'too_many_ticket_types'],
    example: {
      name: 'Early bird',
      price: 45,
      total: 500,
      description: 'Until 1 February',
      grants: [],
      tax: { name: 'VAT', rate: 21, inclusive: true },
    },
  },
  'PATCH /events/{id}/ticket-types/{typeId}': {
    summary: 'Edit a ticket type',
    description:
      "Only the fields sent change. A `total` below what the type has sold is 409 `total_below_sold` (never an oversell, even against a sale at the same moment); `capacity` and the stock of the type follow `total` in the same transaction (a rise onto its first stock item, a fall from the fullest ones, each conditional: below what is sold and held in reservations is 409 `total_below_sold` too). `grants` change only while the type has no tickets (409 `type_has_tickets`), and name only events the caller may edit: one outside a scoped administrator's events is the same 400 as one that does not exist. `tax` (`null`: untaxed) prices the holds made from then on; tickets sold keep the tax they were sold with.",
    parameters: { typeId: 'The ticket type id (a positive integer).' },
    conflicts: ['stale_version', 'total_below_sold', 'type_has_tickets'],
    example: { total: 1200, price: 49.99 },
  },
  'DELETE /events/{id}/ticket-types/{typeId}': {
    summary: 'Delete a ticket type',
    description:
      'Only a type with no tickets (409 `type_has_tickets`); a published event keeps one type at least (409 `last_ticket_type`).',
    parameters: { typeId: 'The ticket type id (a positive integer).' },
    conflicts: ['stale_version', 'type_has_tickets', 'last_ticket_type'],
  },
  'POST /events/{id}/teams': {
    summary: 'Add a team',
    description:
      'At most 200 an event (409 `too_many_teams`). A team that live tickets name is not removed (409 `in_use`).',
    conflicts: ['stale_version', 'too_many_teams'],
    example: { name: 'Thames Striders' },
  },
  'PATCH /events/{id}/teams/{teamId}': {
    summary: 'Rename a team',
    description: 'Tickets name their team by id, so the new name shows at once wherever it is read.',
    parameters: { teamId: 'The team id (a positive integer).' },
    conflicts: ['stale_version'],
    example: { name: 'Thames Striders AC' },
  },
} satisfies Entries;
