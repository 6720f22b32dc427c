import * as z from '../../schema.ts';
import { TicketWaiverResource, type TicketWaiver } from '../../events/domain/waivers.ts';
import type { TicketRecord } from './ticket.ts';
import { TicketResource } from './ticket-resource.ts';
import { toTicket } from './ticket-view.ts';
import { addAmounts } from '../../money.ts';

/**
 * What `GET /ticket` (the older list for integrations) answers for each ticket, pure: the
 * ticket as `GET /ticket/{id}` answers it and the `_include` expansions. Which tickets, in
 * which order, is the list engine's (shared/lists/).
 */

/** `_include` values (the OpenAPI description of GET /ticket). */
export const OLDER_TICKET_INCLUDES = [
  'costs',
  'refundProtect',
  'change',
  'promoter',
  'waveTime',
  'waivers',
  'user',
] as const;
export type OlderTicketInclude = (typeof OLDER_TICKET_INCLUDES)[number];

/**
 * A ticket of `GET /ticket`: the ticket as `GET /ticket/{id}` answers it, plus the
 * `_include` expansions (present only when asked for); `history` is a single ticket's only.
 */
const money = z.number();

export const ListedTicketResource = z.lazy(() =>
  z
    .strictObject({
      ...TicketResource.shape,
      costs: z.optional(
        z
          .strictObject({
            price: money,
            taxAmount: money,
            gratuityAmount: money,
            paidUponCheckout: money,
            total: money,
          })
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
    ),
);
/** A listed ticket: the ticket as `GET /ticket/{id}` answers it, plus the asked-for expansions. */
export type ListedTicket = Omit<z.output<typeof ListedTicketResource>, 'history'>;
/** price + taxAmount + gratuityAmount, to the cent. */
export type TicketCosts = NonNullable<ListedTicket['costs']>;
/** An event-local time: in the event's offset, as GET /my-account/wave-time answers it. */
export type ListWaveTime = NonNullable<ListedTicket['waveTime']>;
export type ListUser = NonNullable<ListedTicket['user']>;

/** What the expansions need beyond the records, read once per page. */
export interface PageRelations {
  affiliates: ReadonlyMap<number, string | null>;
  waves: ReadonlyMap<string, ListWaveTime>;
  users: ReadonlyMap<number, ListUser>;
  waivers: ReadonlyMap<number, TicketWaiver[]>;
}

export const waveKey = (eventId: number, waveTimeId: number): string => `${eventId}/${waveTimeId}`;

export const costsOf = (record: TicketRecord): TicketCosts => ({
  price: record.price,
  taxAmount: record.taxAmount,
  gratuityAmount: record.gratuityAmount,
  paidUponCheckout: record.paidUponCheckout,
  total: addAmounts([record.price, record.taxAmount, record.gratuityAmount]),
});

export function toListedTicket(
  record: TicketRecord,
  include: readonly OlderTicketInclude[],
  related: PageRelations,
): ListedTicket {
  const out: ListedTicket = toTicket(record);
  const has = (name: OlderTicketInclude) => include.includes(name);
  if (has('costs')) out.costs = costsOf(record);
  if (has('refundProtect')) out.refundProtect = { status: record.refund.status, amount: record.refund.amount };
  // As `_include=change_status` shows it on /tickets.
  if (has('change')) out.change = toTicket(record, ['change_status']).ticketClaim ?? null;
  if (has('promoter')) out.promoter = record.orderId == null ? null : (related.affiliates.get(record.orderId) ?? null);
  if (has('waveTime'))
    out.waveTime =
      record.waveTimeId == null ? null : (related.waves.get(waveKey(record.eventId, record.waveTimeId)) ?? null);
  if (has('waivers')) out.waivers = related.waivers.get(record.id) ?? [];
  if (has('user')) out.user = record.customerId == null ? null : (related.users.get(record.customerId) ?? null);
  return out;
}
