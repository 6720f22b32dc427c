import { EXPORT_ORDERS_PER_PART, EXPORT_TICKETS_PER_PART } from '#shared/selling/domain/order-csv';
import { EVENT_SCOPE, type Entries, md } from './common.ts';

/** Staff's sales figures and the orders' export (`orders:read`): what an event sold, and its orders as CSV. */
export const SALES = {
  'GET /events/{id}/sales': {
    summary: "An event's sales figures (ours)",
    description: md(
      "Per ticket type `{typeId, name, sold, gross, net, tax, fees, discount}` and the event's `totals`, in its `currency` (major units): `sold` the tickets holding a place now, `gross` what their buyers paid for them (price, taxes and booking fees; shipping not included), `tax` every tax in it (the tickets' and the fees'), `net` = `gross` − `tax`, `fees` the booking fees net of their tax, `discount` what promo codes took off (not in `gross`).",
      "Exact as soon as the sale, cancel or transfer that changed them has answered: each ticket type's stock shards keep the sums beside their `sold`, moved in the same update (a sold ticket adds its own figures, a cancelled, refunded or transferred one takes them away), and are read strongly consistent; no order is read, so the answer costs the same at any number of orders. " +
        EVENT_SCOPE,
    ),
    errors: [404],
  },
  'GET /orders/export': {
    summary: "Export an event's orders as CSV (ours)",
    description: md(
      "`text/csv` (RFC 4180, UTF-8, CRLF), one row per order of the `event`, newest first as `GET /orders` lists them: `orderId`, `purchasedDate`, `status`, `purchaser`, `emailAddress`, `tickets` (how many), `currency`, the amounts as priced (`ticketsAmount`, `discount`, `fees`, `shipping`, `tax`, `total`), `paid` and `refunded` (the payment's transactions), `promoCode`, `invoiceNumber` (empty until the order is invoiced), then one column per tax rate of the event (`tax VAT 21%`: its types', booking fee's and shipping's taxes as the event states them now; an order's columns add up to its `tax`). A cell a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`) is prefixed with `'` (OWASP's CSV injection).",
      `**In parts, at any size**: API Gateway cannot stream an answer and buffers at most 6 MB, so each answer is a part of at most ${EXPORT_ORDERS_PER_PART} orders and ${EXPORT_TICKETS_PER_PART} tickets, the header row on the first part only; while more remain, \`Link: </api/v2/orders/export?event=…&_cursor=…>; rel="next"\` names the next part (the cursor is the orders list's own, as \`GET /orders\`' \`next\`: no token). Append the parts in order for the whole file. ` +
        EVENT_SCOPE,
    ),
    parameters: {
      event: 'The event whose orders are exported (required).',
      _cursor: 'The part after this cursor: as the `Link` header of the part before names it.',
      _limit: `The most orders a part holds, 1 to ${EXPORT_ORDERS_PER_PART} (default ${EXPORT_ORDERS_PER_PART}).`,
    },
    errors: [404],
  },
} satisfies Entries;
