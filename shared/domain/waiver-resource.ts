import * as z from '../schema.ts';
import { SIGNED_STATUSES, WAIVER_KINDS, type TicketWaiver } from './waivers.ts';

/**
 * One entry of `GET /tickets/{id}/waivers` (`ticketWaivers` in waivers.ts), as a schema:
 * the route declares its answer with it, and the OpenAPI document's `TicketWaiver`
 * component is generated from it. A sibling of waivers.ts, like ticket-resource.ts.
 */
export const TicketWaiverResource = z.strictObject({
  id: z.int(),
  title: z.string(),
  kind: z.enum(WAIVER_KINDS),
  appliesTo: z.enum(['event', 'ticket-type']),
  eventId: z.int(),
  ticketTypeId: z.nullable(z.int()),
  versionHash: z.string().check(z.describe("SHA-256 (hex) of the current version's text.")),
  signedStatus: z.enum(SIGNED_STATUSES),
  signedDate: z
    .nullable(z.iso.datetime({ offset: true }))
    .check(z.describe("In the event's time zone with its offset (`2026-06-01T09:30:00+02:00`); null when unsigned.")),
  signedVersionHash: z
    .nullable(z.string())
    .check(z.describe('The version the ticket signed (may be older than `versionHash`); null when unsigned.')),
});

true satisfies z.Same<z.output<typeof TicketWaiverResource>, TicketWaiver>;
true satisfies z.Same<keyof z.output<typeof TicketWaiverResource>, keyof TicketWaiver>;
