import { type Entries, md } from './common.ts';

/** The `my-account` tag: who the customer is and what a customer route answers. */
export const MY_ACCOUNT_TAG = md(
  "The customer portal: the customer's own account, catalogue and orders, with a customer token (audience `ticketing-customer`, from `PUT /my-account`). Every customer route takes the customer from the token, never from the request: another customer's event, ticket or order is 404, never 403 and never the data. Administrator tokens never open these routes, customer tokens open nothing else.",
  "**Identity.** Customers are users of their own Cognito pool, apart from the administrators' (email sign-in, case-insensitive; accounts are made by the buyer with the public `POST /my-account/sign-up` or by staff with `POST /my-account`). Cognito holds the login and the password; the service keeps the customer record. Addresses are lower-cased and trimmed everywhere.",
  "**Verification is the service's own**, not Cognito's `email_verified`. A token is 32 random bytes, stored only as its SHA-256, bound to a customer and an address, valid 48 hours. Mails link to `<portal>/verify-email#token=…` (in the fragment, which browsers never send); that page signs in with the token (`PUT /my-account` with `emailVerificationToken`), which marks the record verified or switches the address in one transaction. An invalid, expired, spent or foreign token is a 400 on `body.emailVerificationToken`, looked at only after the password is accepted.",
  'Not built yet: re-sending the account-creation mail, a customer forgot-password flow, refreshing a customer token.',
);

export const MY_ACCOUNT = {
  'PUT /my-account': {
    summary: 'Customer sign-in',
    description: md(
      'Answers `{count: 1, data: {token, expiresIn, expiresAt, tokenType: "Bearer", customer}}` and sets the auth cookie. `token` (the name the spec leaves open) is the service\'s customer JWT, valid 1 hour; `expiresAt` is its `exp` in epoch seconds. Wrong password, unknown login and a Cognito user without a record all give the same 401; an address not yet verified (and no valid token sent) is 403 `error: "email_not_verified"`.',
      "Throttled like the administrators' password login (see the `auth` tag): at most 5 failed attempts per login from one client network and 20 per network in 15 minutes, then a growing lock-out of that network (429 with `Retry-After`, even for the right password from that network). The first sign-in carries the mailed `emailVerificationToken`, which marks the address verified; after an address change (`PATCH /my-account`), signing in with the old address, the password and the token mailed to the new one switches the login to it.",
    ),
    errors: [401],
    conflicts: ['email_taken'],
    example: { login: 'ada@example.com', password: 'correct horse battery staple' },
  },
  'POST /my-account': {
    summary: 'Create a customer account',
    description:
      'By an administrator with `customers:manage` (our reading of "an admin who belongs to the customer group"). Strict body (email at most 254 characters, name 1 to 200, password 12 to 256); an address in use is 409 `email_taken`. Creates the Cognito user, then the record and its verification token in one transaction (if that fails, the Cognito user is deleted again: never one without the other), then mails the verification link; 201 `{count: 1, data: customer}`. A failed mail still answers 201, and there is no route to send it again yet.',
    conflicts: ['email_taken'],
    example: { email: 'ada@example.com', password: 'correct horse battery staple', name: 'Ada Lovelace' },
  },
  'POST /my-account/sign-up': {
    summary: 'Sign up for a customer account (ours)',
    description: md(
      "Public, beside the spec's administrator-only `POST /my-account` (unchanged). The same strict body `{email, password, name}` (email at most 254 characters, name 1 to 200), and a password the customers' Cognito pool accepts, checked here for every address alike: 12 to 256 characters with a lower-case and an upper-case letter, a digit and a symbol, no leading or trailing space (a 400 naming `body.password`).",
      'Answers **202 `{count: 1, data: {status: "verification_sent"}}` whether or not the address has an account**, after at least a second: a new address gets an unverified account and the verification link (`<portal>/verify-email#token=…`, completed by signing in with `PUT /my-account` and `emailVerificationToken`, as for an account staff made); an address with an account changes nothing, and its owner is mailed that someone tried to sign up with it. The answer never says which.',
      'Throttled before the address is looked up: 10 sign-ups per client network an hour, then 3 per address in 24 hours (429 with `Retry-After`, the same for known and unknown addresses).',
    ),
    example: { email: 'ada@example.com', password: 'Correct-horse-battery-9', name: 'Ada Lovelace' },
  },
  'GET /my-account': {
    summary: "The customer's account",
    description: '`{count: 1, data: customer}`; a token whose account is gone is 401.',
  },
  'PATCH /my-account': {
    summary: "Update the customer's account",
    description: md(
      "The spec's update body, strict (an unknown field or wrong type is a 400 naming `body.<field>`; at least one field; `accountNumber`, `primary` and `billing` may be null). Only the fields sent change.",
      'A new `emailAddress` is not applied at once: it becomes `pendingEmailAddress` (409 `email_taken` if another login has it) and its token is mailed to the new address; the login stays the old address until the customer signs in with the old address, the password and that token. At most 5 address changes per customer per 24 hours; and because the 409 tells whether an address has an account, the questions themselves are limited before the lookup: 10 per customer and 30 per client network an hour (429 with `Retry-After`).',
    ),
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
      "One of a fixed set of mails, to the account's own address only: `email` must be it, else 400 on `body.email` (the route cannot mail strangers). `type`: `account_details`, `order_confirmation` (the newest order with its tickets) or `tickets` (the account's tickets, first 50); another is a 400 listing them. At most 5 per customer per hour (429 with `Retry-After`). Answers `{count: 1, data: {sent, type, email}}`.",
  },
  'GET /my-account/event': {
    summary: 'Events the customer can see',
    description: md(
      "Published events, plus every event the customer holds an order for, even unpublished; sorted by start then id, complete at any number of events. Walk it with `next`: pass it as `_cursor` (without `_offset`) until it is null. `_offset + _limit` may reach the first 1,000 matches; past them a **400** naming `_cursor`. Without a start window or text filter `totalCount` is exact on every page (kept counts); otherwise it is exact when the page's read reached the end of the matches from the start, else it counts the matches read so far and the answer adds `totalCountIsEstimate: true`.",
      '**Text filters.** A published event is indexed by the words of its title, description, venue and venue address (folded: lower case, accents removed); `search` and `title` read the events holding a word that starts with their longest word of 3 or more characters, then match the whole filter on each (a search finds a word by its start: `marat` finds `Marathon`, `athon` does not). A `title` or `search` without such a word (`%run%`, `5k`) reads the events by start with the filter on top. Either way a page reads at most 2,000 index items (and the events they name): a page that cannot be filled within that is a **400** naming the filter, never a short page.',
      'Strings where the spec says string: `cutOff` and `onSaleDate` are unix seconds (`""` when unset), `published`, `hideDate` and `hideTime` are `"1"` or `"0"`, `start` is in the event\'s own offset. `inventory.sold` sums the event\'s kept counts; `inventory.total` is the event\'s capacity.',
    ),
    parameters: {
      title: 'Exact title (case-sensitive), or a pattern with `%` wildcards (at most 10).',
      search:
        'Case-insensitive text in the title, description, venue or venue address (at most 100 characters); `%` is a wildcard there too (at most 10).',
      fromEventStart:
        'Events starting at or after this Unix time in seconds; absent or `false` for no bound. Bad or inverted: 400.',
      toEventStart: 'Events starting at or before this Unix time in seconds; absent or `false` for no bound.',
      return: '`orders`: only events the customer bought tickets for; `all` (default): every match.',
      _cursor: 'The `next` of the previous page of the same query (not with `_offset`); follow it until it is null.',
    },
  },
  'GET /my-account/ticket-type/{eventId}': {
    summary: 'Ticket types of an event',
    description:
      "Only for an event the customer can see, else 404. The paged envelope of `{id (string), name, description, ordering, price, tax, available, bookingFee}` by `ordering` then id: `bookingFee` is the event's booking fee on one ticket of the type with a tax added to it, shown before the hold (a hold of one adds it as its `fees` and their tax).",
  },
  'GET /my-account/wave-time/{eventId}': {
    summary: 'Wave times of an event',
    description:
      "The start waves of a race, only for an event the customer can see (else 404): `{count, data: [{id, eventId, name, startTime, capacity}]}` by start, `startTime` in the event's own offset.",
  },
  'GET /my-account/shipping-method': {
    summary: 'Shipping methods a buyer may choose (ours)',
    description: md(
      "Ours (the spec's `GET /shipping-method` is for staff): the methods a reservation may name as `shippingMethodId`, the same for every customer, in id order, in the paged envelope of `{id, name, description, charge, twoPlusCharge, chargeType, hasETickets, requiresShippingInfo, allowInternational}` (the staff's record without `hasBadges`, `created`, `updated`). What an order pays for shipping is the reservation's answer (`amounts.shipping`), priced by the server from these fields.",
      "A method that `requiresShippingInfo` posts the tickets: the checkout then requires `shippingAddress` and `shippingCountry`, and refuses them otherwise (400 naming the field); `allowInternational` false means the stage's home country only (another `shippingCountry` is a 400 naming `body.shippingCountry`). Without `hasETickets` the confirmation carries no barcode.",
    ),
  },
  'GET /my-account/question/{eventId}': {
    summary: "An event's attendee questions (ours)",
    description: md(
      "Ours: what the checkout asks each attendee, only for an event the customer can see (published, or one they hold an order for), else 404 as `GET /my-account/ticket-type/{eventId}`. The paged envelope of `{id, text, type, required, options: [{id, text}]}` in the organiser's order (at most 50 questions).",
      "Each attendee's `answers` in `POST /my-account/reservations/{id}/checkout` are `{questionId, answerText}` for a `text` question and `{questionId, answerId}` (an option's `id`) for a `choice` one; a `required` question unanswered is a 400 naming `body.attendees.<n>.answers`, a wrong answer one naming the answer's field.",
    ),
    errors: [404],
  },
  'GET /my-account/orders': {
    summary: "The customer's orders",
    description: md(
      "The caller's orders, newest first. An order is for one event; its `status` is `pending` (tickets being issued), `active` (all tickets issued), `cancelled` or `refunded`. The entry is `{id (string), eventId, created, purchasedDate, status, emailAddress, purchaser, affiliate, grandTotal, waveTimeId, teamId}` (the spec's top-level `waveTimeId` and `teamId`, read as per order), `amounts` `{tickets, discount, fees, shipping, tax, total, currency}` as its reservation or box-office sale priced it (`total` is `grandTotal`; absent on an order seeded whole), each ticket (`includeTickets=true`) with its `price` (net of tax) and `taxAmount`, and on a checkout's order that named a shipping method `shipping: {shippingMethodId, address, country}` (`address` and `country` null unless the method `requiresShippingInfo`).",
      "Complete at any number of orders: walk it with `next` as `_cursor` (without `_offset`) until it is null; `_offset + _limit` may reach the first 1,000, past them a **400** naming `_cursor`. `totalCount` is exact from the kept counts without a date range and with no filter, `event` only, or one `ticketType` only; otherwise exact when the read reached the end from the start, else the matches read so far with `totalCountIsEstimate: true`. `ticketType` is applied to what is read, at most 2,000 orders a page: a page it cannot fill within that is a 400 naming it (add `event` or a date range), never a short page. `includeTickets` adds `tickets: [{id (string), status, name, price, attendee, barcode}]` (`attendee` is the position in the order; `barcode` what the gate scans, so a portal can draw the QR code without the PDF; `status` one of `deleted`, `transferred`, `withdrawn`, `cancelled`, `checked_in`, `pending`, `active`): an order lists the tickets it issued, and a ticket transferred later shows `transferred` while its replacement is on the customer's account. `includeTrans` adds `transactions: [{amount, processor, reference, time}]` (never card data).",
    ),
    parameters: {
      event: 'Comma-separated event ids (at most 10).',
      ticketType: 'Only orders holding one of these ticket types (comma-separated ids, at most 20).',
      fromPurchaseDate: 'Bought on or after this date (the whole UTC day) or instant. Bad or inverted: 400.',
      toPurchaseDate: 'Bought on or before this date (its last moment) or instant.',
      includeTickets: "Include each order's tickets.",
      includeTrans: "Include each order's transactions.",
      includeAnswers: "Include the order's answers and each ticket's `attendeeQuestions`.",
      _cursor: 'The `next` of the previous page of the same query (not with `_offset`); follow it until it is null.',
    },
  },
  'GET /my-account/payment-processor': {
    summary: "The account's payment processor",
    description:
      "The one record of public settings `{processor, provider: stripe|square|paypal, publishableKey, currency (ISO 4217), mode: test|live, merchantName}`; secret keys are never stored here. 404 when none is configured. `processor` (ours, beyond the spec's open record) is who takes the checkout's payments: where the stage has a Stripe publishable key, `processor` and `provider` are `stripe` and `publishableKey` and `mode` are the stage's, what the portal gives Stripe.js to confirm the checkout's PaymentIntent. Each event sells in its own currency: with `eventId`, `currency` is that event's, what its checkout's PaymentIntent charges in (an unknown event, or an unpublished one the caller holds no order for, is 404 as a missing event); without it, the record's (the account's default, which no checkout charges in unless its event's is the same).",
    parameters: {
      eventId:
        "The event being bought: `currency` is then that event's (as `GET /my-account/ticket-type/{eventId}`, 404 for an event the caller cannot see).",
    },
    errors: [404],
  },
  'GET /my-account/orders/{id}/invoice': {
    summary: "My order's invoice (ours)",
    description: md(
      "The invoice of the caller's own order as `application/pdf` (`Content-Disposition: inline`, the same page as staff's `GET /orders/{id}/invoices/{number}`); the confirmation mail links here. Another customer's order, or a missing one: 404. The caller's order without an invoice is 409 `not_invoiced`: not paid yet, its tickets still being issued (a few seconds after the payment), or free (a free order has none).",
    ),
    errors: [404],
    conflicts: ['not_invoiced'],
  },
  'GET /my-account/tickets/{ticketId}/pdf': {
    summary: 'A printable ticket (ours)',
    description: md(
      "The caller's own ticket as `application/pdf` (`Content-Disposition: inline`), one A4 page: the event's title, its date and time in the event's own time zone (the date alone when the event hides its time, neither when it hides its date), the venue, the attendee's name, the ticket type, the wave and its start, the barcode as a QR code (error correction M) and as text, the ticket and order ids. Characters the standard PDF fonts cannot draw print as `?`; the barcode is ASCII.",
      "Another customer's ticket, a deleted or a missing one: 404. A ticket that admits nobody is not printed: 409 `cancelled`, `transferred` (print its replacement), `withdrawn`, or `pending` (not paid yet). A checked-in ticket still prints. The path parameter is named as in the spec's other customer ticket route, `GET /my-account/upgrades/{ticketId}`.",
    ),
    errors: [404],
    conflicts: ['cancelled', 'transferred', 'withdrawn', 'pending'],
  },
  'GET /my-account/upgrades/{ticketId}': {
    summary: 'Upgrade options of a ticket',
    description:
      "Only the customer's own tickets, not deleted; another's is 404. The options are the event's other types priced above the ticket's, cheapest first: `{ticketId, fromTypeId, targetTypeId, name, description, priceDifference, currency, available}` (`currency`: the event's; `available`: sold < total). A ticket that is not eligible, checked in or already upgraded gets none.",
  },
  'POST /my-account/claim': {
    summary: 'Accept a claimed ticket (ours)',
    description: md(
      "Not in the spec, which has no route for the claimed transition: the claimant, signed in, presents the token of the mailed claim link (the portal's `/claim` page takes it from the link's `#token=` fragment and keeps it for the tab, so it survives signing in without ever being put in a URL). The ticket moves to the caller's account (`customerId`; `orderId` stays the buyer's), the claim becomes `claimed`, and the ticket is answered `{count: 1, data: ticket}` as `GET /ticket/{id}` shows it.",
      'An unknown, spent, voided or expired token is 400 naming `body.token` (a replay too: nothing changes); a claim no longer open is 409 with its reason; of two customers racing on one token exactly one wins.',
    ),
    conflicts: ['deleted', 'transferred', 'withdrawn', 'cancelled', 'checked_in', 'no_open_claim', 'concurrent_update'],
  },
} satisfies Entries;
