import * as z from '../schema.ts';
import type { ListedTicket } from './older-ticket-view.ts';
import { TicketResource } from './ticket-resource.ts';
import { TicketWaiverResource } from './waiver-resource.ts';

/**
 * A ticket of `GET /ticket`: the ticket as `GET /ticket/{id}` answers it, plus the
 * `_include` expansions (present only when asked for). Only the list's handler imports it.
 */
const money = z.number();

export const ListedTicketResource = z
  .strictObject({
    ...TicketResource.shape,
    costs: z.optional(
      z
        .strictObject({ price: money, taxAmount: money, gratuityAmount: money, paidUponCheckout: money, total: money })
        .check(z.describe('`total` = price + taxAmount + gratuityAmount, to the cent.')),
    ),
    refundProtect: z.optional(
      z
        .strictObject({ status: z.enum(['none', 'requested', 'refunded']), amount: money })
        .check(z.describe("The ticket's refund record.")),
    ),
    change: z.optional(
      TicketResource.shape.ticketClaim.def.innerType.check(
        z.describe("The ticket's claim, as `_include=change_status` shows it on /tickets; null when none."),
      ),
    ),
    promoter: z.optional(
      z.nullable(z.string()).check(z.describe("The order's affiliate; null without an order or an affiliate.")),
    ),
    waveTime: z.optional(
      z
        .nullable(
          z.strictObject({
            id: z.int(),
            name: z.string(),
            startTime: z.iso.datetime({ offset: true }),
            capacity: z.int(),
          }),
        )
        .check(
          z.describe(
            "The ticket's start wave (`startTime` an event-local time, in the event's offset); null when none.",
          ),
        ),
    ),
    waivers: z.optional(
      z
        .array(TicketWaiverResource)
        .check(z.describe('As GET /tickets/{id}/waivers answers them; only with _limit of at most 25.')),
    ),
    user: z.optional(
      z
        .nullable(z.strictObject({ id: z.int(), name: z.string(), emailAddress: z.string() }))
        .check(z.describe('The customer holding the ticket; null for staff sales.')),
    ),
  })
  .check(
    z.describe(
      'A ticket of the older list, with the expansions asked for by `_include`: costs, refundProtect, change, promoter, waveTime, waivers, user.',
    ),
  );

true satisfies z.Same<keyof z.output<typeof ListedTicketResource>, keyof ListedTicket | 'history'>;
