import type { WaiverKind } from './waivers.ts';

/**
 * What the events routes accept, as the use cases take it (parsed: instants in UTC ISO,
 * names trimmed). The schemas that parse them, with their bounds: shared/http/contract/event.ts
 * and event-parts.ts, each tied to its type here.
 */

/** The listing fields an event's create or patch may name (defaults: event.ts DEFAULT_LISTING). */
export interface EventListingBody {
  venue?: string;
  venueAddress?: string;
  description?: string;
  shortDescription?: string;
  category?: string;
  location?: string;
  sefUrl?: string;
  smallPic?: string | null;
  largePic?: string | null;
  ordering?: number;
  onSaleDate?: string | null;
  cutOff?: string | null;
  hideDate?: boolean;
  hideTime?: boolean;
}

/** `POST /events`: the event with, optionally, its first parts. */
export interface NewEventBody extends EventListingBody {
  title: string;
  start: string;
  timezone: string;
  currency: string;
  ticketTypes?: {
    name: string;
    price: number;
    total: number;
    description?: string;
    ordering?: number;
    grants?: number[];
  }[];
  waveTimes?: { name: string; startTime: string; capacity: number }[];
  questions?: { text: string; required?: boolean; options?: { text: string; sku?: string }[] }[];
  /** `ticketTypeIndex`: the type (its position in `ticketTypes`) whose tickets sign it; omitted: every ticket. */
  waivers?: { title: string; kind?: WaiverKind; text: string; ticketTypeIndex?: number }[];
  teams?: { name: string }[];
  /** What one customer may hold at once (1 to MAX_TICKETS_PER_RESERVATION). */
  maxHeldPerCustomer?: number;
  /** What one network may hold at once (1 to MAX_HELD_PER_NETWORK). */
  maxHeldPerNetwork?: number;
}

/** `PATCH /events/{id}`. */
export interface EventPatchBody extends EventListingBody {
  title?: string;
  start?: string;
  timezone?: string;
  currency?: string;
  published?: boolean;
  /** How long a reservation holds its tickets (1 to 60). */
  reservationMinutes?: number;
  maxHeldPerCustomer?: number;
  maxHeldPerNetwork?: number;
  /** The version the client read: a later one is 409 `stale_version`. */
  version?: number;
}

/** `POST /events/{id}/ticket-types`. */
export interface NewTicketTypeBody {
  name: string;
  price: number;
  total: number;
  description: string;
  ordering?: number;
  grants: number[];
}

/** `PATCH /events/{id}/ticket-types/{typeId}`. */
export type TicketTypePatchBody = Partial<NewTicketTypeBody> & { version?: number };

/** `POST /events/{id}/teams` and `PATCH /events/{id}/teams/{teamId}`: a team is its name. */
export interface TeamBody {
  name: string;
  version?: number;
}
