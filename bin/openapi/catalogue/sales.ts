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
} satisfies Entries;
