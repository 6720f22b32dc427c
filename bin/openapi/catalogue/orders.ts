import { PORTAL_OFFSET_WINDOW, PORTAL_READ_BUDGET } from '#shared/portal/domain/portal-lists';
import { EVENT_SCOPE, type Entries, md } from './common.ts';

/** The `orders` tag: staff reading and cancelling orders. */
export const ORDERS_TAG = md(
  "Orders for staff: `POST /orders` (a box-office sale) with `orders:sell`, `GET /orders` and `GET /orders/{id}` with `orders:read`, `POST /orders/{id}/cancel` with `orders:refund`. An order is for one event; an administrator limited to some events sees only their orders (another event's order: 404; a list filtered by another event: an empty page).",
  "An order's `status`: `pending` (its tickets being issued), `active` (paid and issued), `cancelled` (cancelled by staff, no payment taken), `refunded` (cancelled by staff after a payment). `history` lists the order's creation and every staff change with who made it (`admin 3`) and `force` (`tickets_cancelled`: part of it, with its `ticketIds`); each ticket's own history records its cancellation (`cancel_order`, or `force_cancel_order` for a checked-in ticket cancelled with `force`).",
);

export const ORDERS = {
  'GET /orders': {
    summary: 'List orders',
    description: md(
      'Newest first (purchase instant, then id), walked by `next`: pass it as `_cursor` for the following page (null on the last); `_offset` + `_limit` stay within the first ' +
        `${PORTAL_OFFSET_WINDOW} matches.`,
      'Filters combine: `eventId`, `status`, `customerId` or `email` (the customer whose login it is; an address no customer holds is an empty page), and a purchase range `fromPurchaseDate`/`toPurchaseDate` (an order is created when it is bought). Each filter set is served by an index in its order, so a page costs what page 1 costs at any number of orders. ' +
        `A customer's orders filtered by \`status\` (or by a scope), and any list filtered by \`promoCode\`, read at most ${PORTAL_READ_BUDGET} orders a page; fewer matches than a page in that read is a 400 naming the narrower query.`,
      "`totalCount` is exact from kept counts without a purchase range or `promoCode` (per event and status; a customer's per event, without `status`); otherwise it is exact when the read reached the end, else the matches read so far with `totalCountIsEstimate: true`.",
      'Entries carry no `tickets` (their ids are in `ticketIds`): `GET /orders/{id}` answers them.',
      "`dispute=open` lists the orders whose card payment is disputed and the dispute still running (a chargeback to answer in Stripe's dashboard, or an inquiry, `warning_*`), `dispute=closed` those whose dispute is decided (`won`, `lost`, `warning_closed`, `prevented`); each entry carries its `dispute`. These lists are kept per event and across events as each dispute event is recorded: `dispute` combines with `eventId`, the caller's scope and a purchase range, not with `status`, `customerId`, `email` or `promoCode` (400); their `totalCount` is counted as read (`totalCountIsEstimate` when the read did not reach the end).",
    ),
    parameters: {
      eventId: "The event's orders only.",
      status: 'Orders in this status only.',
      customerId: "The customer's orders only.",
      email: 'The orders of the customer whose login is this address.',
      fromPurchaseDate: 'Bought at or after this ISO-8601 date (the whole UTC day) or date-time.',
      toPurchaseDate: 'Bought at or before this ISO-8601 date (the whole UTC day) or date-time.',
      _cursor: 'The `next` of the previous page; without `_offset`.',
      dispute: 'Disputed orders only: `open` (the dispute is running) or `closed` (decided).',
      promoCode:
        "The orders priced with this promo code, whatever its case (each event's code of that text, within the caller's events).",
    },
  },
  'POST /orders': {
    summary: 'Sell at the box office',
    description: md(
      "Staff sell tickets of one event at the desk: 201 `{count: 1, data: order}`, the order as `GET /orders/{id}` answers it, `status: \"active\"` with its tickets issued (each with its barcode, in the ticket lists, `GET /tickets/check-in-stats` `soldTickets` and its type's `sold`; each ticket's history names the staff member, and the order's `history` starts with `created` by them), and the buyer (`buyer.emailAddress`) is mailed the confirmation with the tickets' QR codes.",
      'Body: `eventId`; `lines` `[{typeId, quantity, waveTimeId?}]` as a reservation names them (a type or wave not of the event is a 400 naming the line; a type and wave twice is a 400); `payment` `{method: "cash" | "card_present" | "comp", reference?}`; `buyer` `{emailAddress, firstName?, lastName?}` (the order\'s `purchaser`: the names, else the account\'s name, else the address); `attendees`, one per ticket in line order, as the portal\'s checkout takes them (`firstName`, `lastName`, `email`, optional `birthDate` `yyyy-mm-dd`, `title`, `company`, `answers` to the event\'s questions, the required ones required); optional `customerId`, the account whose portal shows the order and tickets (one that does not exist is a 400; without it the order is a walk-up sale, `customer.id` 0, in no customer\'s portal).',
      "Prices come from the types as the portal's reservation prices them (each type's `tax`, the event's `bookingFee` and `feeTax`; the order carries its `amounts`): the body carries no amount, tax, fee or discount (such a field is a 400). The payment is recorded, not taken (the desk took it): `payment.transactions` holds one `{amount, processor: method, reference, time}`, `reference` the one sent or `order-<id>-<method>`; `comp` prices every ticket 0 (no fee, no tax), so the amount is 0 and a later cancel ends `cancelled`, not `refunded`. The processor is never `stripe`: there is no Stripe payment to refund.",
      "Refusals, nothing written: 409 `not_on_sale` for an unpublished event (the desk sells before `onSaleDate` and after `cutOff`, the portal does not); 409 `max_per_order` past 10 tickets (`maxPerOrder`), as a reservation; 409 `sold_out` naming the type (`typeId`) and what is `left`: never an oversell, held tickets are not for sale. An event outside the caller's scope, or none, is 404. `Idempotency-Key` answers a retry with the first answer, one order.",
      "An optional `promoCode` (the event's, any case) prices the sale as a reservation's (its discount off the tickets of its `typeIds`) and names itself on the order (`promoCode`); it is refused as a reservation's, 409 `promo_code_invalid`, `promo_code_not_applicable` or `promo_code_used_up` with the `promoCode` named; a `comp` sale, free already, takes none (400). The sale takes one of its uses in its first transaction, never past `maxUses` however many desks and buyers use it at once; a sale that fails half-way and is undone gives it back.",
      "An order's tickets are many transactions, so the sale goes in steps: the order `pending` with its stock held (one transaction), then each ticket from that hold, then `active`. A failure half-way leaves the order `pending` (visible in `GET /orders?status=pending`) with the tickets issued so far and the rest of its places held, off sale (never oversold) until an operator returns them; a retry sells a new order. " +
        EVENT_SCOPE,
    ),
    conflicts: [
      'not_on_sale',
      'max_per_order',
      'sold_out',
      'promo_code_invalid',
      'promo_code_not_applicable',
      'promo_code_used_up',
    ],
    errors: [404],
    example: {
      eventId: 1,
      lines: [{ typeId: 1, quantity: 2 }],
      payment: { method: 'card_present', reference: 'terminal-7 receipt 0042' },
      buyer: { emailAddress: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
      attendees: [
        { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
        { firstName: 'Charles', lastName: 'Babbage', email: 'charles@example.com' },
      ],
    },
  },
  'GET /orders/{id}': {
    summary: 'Get an order',
    description: md(
      "The order with its tickets (id, state as the customer sees it, type, attendee, `price` net of tax, `taxAmount`, barcode), `grandTotal` and `amounts` `{tickets, discount, fees, shipping, tax, total, currency}` as the sale was priced (absent on an order seeded whole), customer, payment (`paid`: the transactions' sum; `problems`, when there are any: Stripe payments that named the order but did not pay it, another PaymentIntent than its checkout's or another amount or currency, each refunded in full, `refundId` null and `refundRefused` Stripe's code when Stripe refused: refund it in Stripe's dashboard) and history.",
      "`dispute` (when the card payment is disputed): Stripe's dispute as its latest event described it, `{id, status, reason, amount, currency, updatedAt}`, `amount` in major units; `refundFailures` (when a refund failed after it was recorded, a closed card): `{refundId, amount, at}` each, the money the buyer did not get back, also a positive transaction `<refund id>-failed` beside the refund's, so `paid` counts it as kept. Both are alerted to operations when Stripe reports them. " +
        EVENT_SCOPE,
    ),
  },
  'GET /orders/{id}/invoices': {
    summary: "An order's invoices and credit notes (ours)",
    description: md(
      "The order's documents, oldest first, each `{number, kind, issuedAt, total, currency}` (`kind` `invoice` or `credit_note`; a credit note's `total` is negative and its `corrects` names the invoice). A paid order's invoice is issued when its tickets are (behind the payment's webhook, or in the box office's sale); a free or `comp` order has none. Each cancel that returns money issues a credit note: a part's for its tickets and their part of the booking fee, the whole cancel's for what the invoice still charges (shipping included). Numbers are `<year>-<series>-<sequence>` (`2027-C-000042`): a seller's numbers of a year run in one or more series (a letter each, A the first; the stage's `invoiceSeries`, so that numbering keeps up with an on-sale), an order's series fixed by its id, and each series is gapless, each number given with its document: a failed payment takes none. The seller is the stage's (its stage file's `seller`); each document is frozen when issued (seller, buyer, lines, rates), so it reads the same later. " +
        EVENT_SCOPE,
    ),
  },
  'GET /orders/{id}/invoices/{number}': {
    summary: 'One invoice or credit note as a PDF (ours)',
    description: md(
      "The order's document `number` as `application/pdf` (`Content-Disposition: inline`), one A4 page: its number, the invoice a credit note corrects, the seller (name, address, tax id), the buyer, each line with its quantity, tax rate, net, tax and total, the totals per rate and the document's total. A number that is not one of this order's documents is 404. " +
        EVENT_SCOPE,
    ),
    parameters: {
      number:
        "The document's number as listed, `<year>-<series letter>-<six digits or more>` (`2027-C-000042`); one numbered before the series were has none (`2027-000042`).",
    },
    errors: [404],
  },
  'POST /orders/{id}/cancel': {
    summary: 'Cancel an order',
    description: md(
      "Cancels the tickets the order sold that hold a place (the spec's cancelled state, `processState` 4: they leave the ticket lists' active states and `GET /tickets/check-in-stats`' `soldTickets`, and their types' `sold` goes down, so the places are on sale again), refunds what was paid, then marks the order `cancelled`, or `refunded` when a payment was taken, and mails the buyer. A ticket transferred to another type or event is cancelled as its replacement (the same holder and order); already cancelled or deleted tickets stay as they are.",
      "The refund: a Stripe payment is refunded in full through Stripe (what a refund in Stripe's dashboard left), once however the request is repeated; a box-office payment (`cash`, `card_present`) is recorded as refunded at the desk; `comp` refunds nothing. Each refund is a negative transaction in `payment.transactions` (Stripe's: the refund's id as `reference`). Stripe not answering is 503 with `Retry-After`, Stripe refusing the refund 409 `refund_refused` with Stripe's `processorCode`: the status is not moved and a repeat resumes. A charged-back payment (the order's `dispute` is not an inquiry, or Stripe answers `charge_disputed`) is not refunded: Stripe refuses it and the dispute decides where the money goes; its tickets are cancelled all the same and the order ends `cancelled` with its payment and `dispute` on it.",
      "**A checkout not yet active.** Awaiting payment: its PaymentIntent is cancelled at Stripe (the buyer's page can no longer pay it), then the order ends `cancelled` and its reservation is released in the same write, so the stock is on sale again at once; a payment Stripe took just before is refunded in full when Stripe reports it. Paid with its tickets still being issued (`pending`), or paid while the cancel ran: the issue stops (no further ticket is issued and the order is never activated once the cancellation is recorded), the tickets issued so far are cancelled, the payment refunded, and the order ends `refunded` with those tickets in `ticketIds` and the places of the others back on sale. A box-office sale still `pending` (being completed or undone) is 409 `sale_in_progress`.",
      '**Part of an order**: `{"ticketIds": ["12", "13"]}` (ids of the order\'s `ticketIds`, strings or numbers, each once, 1 to 50) cancels only those tickets (their places on sale again) and refunds what they cost, each its `price`, `taxAmount` and part of the booking fee (not the shipping) from the payment: through Stripe (an `amount`, once however the request is repeated) or recorded as due at the desk. The order stays `active` with the rest, `history` gets `tickets_cancelled` with the `ticketIds`; cancelling its last tickets ends it as a whole cancel does (the rest of the payment, shipping included, refunded). A ticket not of the order is a 400 naming it; a ticket of an earlier part is 409 `already_cancelled` with `ticketIds`; the same part again resumes it and refunds nothing twice. Only an `active` order is cancelled in part: another is 409 `order_not_active` (cancel it whole).',
      'A checked-in ticket is cancelled only with `{"force": true}`: otherwise 409 `checked_in` with `ticketIds` naming them, and nothing changes. A replacement in an event outside the caller\'s events is 409 `transferred_out_of_scope` with `ticketIds`, nothing changed. A cancelled, refunded or expired order is 409 `already_cancelled`. Body: `{}`, `{"force": true}`, `{"ticketIds": [...]}` (with `force` or not).',
      "An order's tickets are many transactions, so the cancellation goes in steps: the order records its `cancellation` (who, when, `force`, the outcome) first, then each ticket, then the refund, then the status. A request that fails half-way leaves the order showing its `cancellation`; repeating the request (with the same `Idempotency-Key` or another) finishes it, changing nothing twice. With the same key after success, the first answer. " +
        EVENT_SCOPE,
    ),
    conflicts: [
      'already_cancelled',
      'checked_in',
      'transferred_out_of_scope',
      'refund_refused',
      'concurrent_update',
      'sale_in_progress',
      'order_not_active',
    ],
    example: { ticketIds: ['12'] },
  },
} satisfies Entries;
