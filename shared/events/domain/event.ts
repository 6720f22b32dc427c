import * as z from '../../schema.ts';
import { DEFAULT_CURRENCY } from '../../money.ts';
import type { BookingFee, Seller, TaxRule } from '../../selling/domain/pricing-schemas.ts';
import type { Waiver, WaiverKind } from './waivers.ts';

/**
 * Events, their ticket types (an access package is a type whose `grants` lists other
 * events it also admits to), teams and attendee questions.
 */

/** A team as the team routes answer it and the event keeps it. */
export const TeamResource = z.lazy(() => z.strictObject({ id: z.int(), eventId: z.int(), name: z.string() }));
export type Team = z.output<typeof TeamResource>;

/** A start wave of an event (a race's start times: `EVENT#<eventId>` / `WAVE#<id:10>`), as the wave routes answer it. */
export const WaveTimeResource = z.lazy(() =>
  z.strictObject({
    id: z.int(),
    eventId: z.int(),
    name: z.string(),
    /** ISO-8601 UTC. */
    startTime: z.string(),
    capacity: z.int(),
  }),
);
export type WaveTime = z.output<typeof WaveTimeResource>;

export interface AnswerOption {
  id: number;
  text: string;
  sku?: string;
}

export interface AttendeeQuestion {
  id: number;
  text: string;
  required: boolean;
  /** Empty: a free-text question (answerText); otherwise the answer must be one of these. */
  options: AnswerOption[];
}

export interface TicketType {
  id: number;
  eventId: number;
  name: string;
  price: number;
  /** Shown to customers in the portal. */
  description: string;
  /** The portal lists an event's types by `ordering`, then id (default: the type's position at creation). */
  ordering: number;
  /** Capacity: its tickets sold (`TypeWithSold`) never exceed it. */
  total: number;
  /** Other events this type also admits to (an access package when not empty). */
  grants: number[];
  /** How many stock items hold its `total` (`left`, `held` and `sold`) (shared/selling/data/stock.ts), written in the type's creation transaction. */
  stockShards: number;
  /** The tax on its tickets (included in `price` or added to it); none (absent or null): untaxed. */
  tax?: TaxRule | null;
}

/**
 * A type with its `sold`: tickets of it that hold a place (eligible: not cancelled, transferred, withdrawn or
 * deleted), the sum of its stock shards' `sold` (shared/selling/data/stock.ts `withSold`), never kept on the type's item.
 */
export type TypeWithSold = TicketType & { sold: number };

/** A ticket type of another event (`eventId`) whose access package grants entry to event `into`: its `GRANT#` item. */
export interface AccessGrant {
  into: number;
  eventId: number;
  typeId: number;
}

/** What the customer portal shows of an event (the spec's event entry); kept on the event record. */
export interface EventListing {
  venue: string;
  venueAddress: string;
  description: string;
  shortDescription: string;
  category: string;
  ordering: number;
  location: string;
  sefUrl: string;
  /** Image URLs, or null. */
  smallPic: string | null;
  largePic: string | null;
  /** ISO-8601 UTC, or null when unset: sales close, sales open, the listing went public. */
  cutOff: string | null;
  onSaleDate: string | null;
  publishedDate: string | null;
  /** Published events are listed to every customer; unpublished ones only to customers holding an order for them. */
  published: boolean;
  hideDate: boolean;
  hideTime: boolean;
}

/** The event record itself (one item); its ticket types, teams and wave times are items of their own. */
export interface Event extends EventListing {
  id: number;
  title: string;
  /** IANA time zone, e.g. `Europe/London`. */
  timezone: string;
  /** ISO-8601 UTC (normalised at creation, milliseconds included, so it sorts as a string). */
  startsAt: string;
  questions: AttendeeQuestion[];
  /** The sum of its ticket types' totals (kept so by the ticket-type routes). */
  capacity: number;
  created: string;
  /** ISO 4217 code of its prices (events seeded before the events routes have none): read it by `saleCurrency`. */
  currency?: string;
  /** How long a reservation holds its tickets (default DEFAULT_RESERVATION_MINUTES, shared/selling/domain/reservation.ts). */
  reservationMinutes?: number;
  /** Tickets one customer may hold of it at once (default DEFAULT_MAX_HELD_PER_CUSTOMER, shared/selling/domain/reservation.ts). */
  maxHeldPerCustomer?: number;
  /** Tickets the customers of one network may hold of it at once (default DEFAULT_MAX_HELD_PER_NETWORK). */
  maxHeldPerNetwork?: number;
  /** The booking fee the buyer pays per ticket and/or as a percent of the tickets' price; none: no fee. */
  bookingFee?: BookingFee | null;
  /** The tax on the booking fee and on shipping (shared/README.md "Pricing": an event's settings); none: untaxed. */
  feeTax?: TaxRule | null;
  shippingTax?: TaxRule | null;
  /** Who sells this event's tickets, as its invoices name it; none: the stage's seller (shared/README.md "Invoices"). */
  seller?: Seller | null;
  /** Moved by every edit, which is conditional on it (shared/events/data/event-admin-writes.ts). */
  version?: number;
  /** The last edit: when, and by which administrator. */
  updated?: string;
  updatedBy?: number;
}

/** An event as created, with the ticket types, teams, wave times (and waivers, with their first text) created with it. */
export interface CreatedEvent extends Event {
  ticketTypes: TicketType[];
  teams: Team[];
  waveTimes: WaveTime[];
  waivers?: (Waiver & { text?: string })[];
}

export interface NewEvent extends Partial<EventListing> {
  title: string;
  timezone: string;
  startsAt: string;
  currency?: string;
  questions?: { text: string; required?: boolean; options?: { text: string; sku?: string }[] }[];
  bookingFee?: BookingFee | null;
  feeTax?: TaxRule | null;
  shippingTax?: TaxRule | null;
  seller?: Seller | null;
  ticketTypes: {
    name: string;
    price: number;
    tax?: TaxRule | null;
    total: number;
    grants?: number[];
    description?: string;
    ordering?: number;
  }[];
  teams?: { name: string }[];
  waveTimes?: { name: string; startTime: string; capacity: number }[];
  /** For every ticket, or for the type at `ticketTypeIndex` in `ticketTypes`. */
  waivers?: { title: string; kind?: WaiverKind; text: string; ticketTypeIndex?: number }[];
  maxHeldPerCustomer?: number;
  maxHeldPerNetwork?: number;
}

/** The listing fields an event gets when its creator names none: unpublished, nothing shown yet. */
export const DEFAULT_LISTING: EventListing = {
  venue: '',
  venueAddress: '',
  description: '',
  shortDescription: '',
  category: '',
  ordering: 0,
  location: '',
  sefUrl: '',
  smallPic: null,
  largePic: null,
  cutOff: null,
  onSaleDate: null,
  publishedDate: null,
  published: false,
  hideDate: false,
  hideTime: false,
};

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Problems with attendee answers against the event's questions (empty when valid): each
 * answer names a question of the event, at most once; a question with options takes an
 * `answerId` among them, a free-text question an `answerText`.
 */
export function answerProblems(
  questions: readonly AttendeeQuestion[],
  answers: readonly { questionId: number; answerId?: number; answerText?: string }[],
  path = 'attendeeQuestions',
): { path: string; message: string }[] {
  const byId = new Map(questions.map((question) => [question.id, question]));
  const seen = new Set<number>();
  const problems: { path: string; message: string }[] = [];
  /** The first problem of one answer, if any. */
  const problemOf = (answer: (typeof answers)[number], at: string): { path: string; message: string } | undefined => {
    const question = byId.get(answer.questionId);
    if (!question)
      return { path: `${at}.questionId`, message: `Question ${answer.questionId} is not a question of this event.` };
    if (seen.has(answer.questionId))
      return { path: `${at}.questionId`, message: `Question ${answer.questionId} is answered twice.` };
    seen.add(answer.questionId);
    if (question.options.length) {
      if (answer.answerId === undefined)
        return { path: `${at}.answerId`, message: 'Required: this question has answer options.' };
      if (!question.options.some((option) => option.id === answer.answerId))
        return {
          path: `${at}.answerId`,
          message: `Answer ${answer.answerId} is not an option of question ${question.id}.`,
        };
      return undefined;
    }
    if (answer.answerId !== undefined)
      return { path: `${at}.answerId`, message: 'This question takes a free-text answerText, not an answerId.' };
    if (!answer.answerText?.trim())
      return { path: `${at}.answerText`, message: 'Required: this is a free-text question.' };
    return undefined;
  };
  for (const [index, answer] of answers.entries()) {
    const problem = problemOf(answer, `${path}.${index}`);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** The currency an event's tickets are priced, held and charged in: its own, or EUR for one seeded without. */
export const saleCurrency = (event: Pick<Event, 'currency'>): string => event.currency ?? DEFAULT_CURRENCY;

/** What one event may hold (the events routes and createEvent refuse more; its readers read at most this many). */

/** The ticket types an event can hold (createEvent allows at most this many). */
export const MAX_TICKET_TYPES = 50;

/** The wave times an event can hold (createEvent allows at most this many). */
export const MAX_WAVE_TIMES = 50;

/**
 * The other events one ticket type (an access package) may grant entry to. Every ticket
 * change moves one list entry and one statistics counter per granted event inside the
 * ticket's one transaction (100 actions at most), and a transfer moves them for the old
 * and the new ticket: 20 leaves room for the ticket's own items, history, bib, barcode
 * and idempotency record (a transfer passes 100 actions at 45; test/integration/
 * ticket-transfer.test.ts walks the widest package through check-in, transfer and delete).
 */
export const MAX_GRANTS_PER_TYPE = 20;

/** The attendee questions an event asks and the options one question offers (the event item holds them). */
export const MAX_QUESTIONS = 50;
export const MAX_OPTIONS = 50;
/**
 * The questions' share of the event item, in bytes of their JSON (UTF-8): 50 questions of 50 full-length
 * options would pass DynamoDB's 400 KB item limit, so the list as a whole is bounded too.
 */
export const MAX_QUESTIONS_BYTES = 150_000;
export const questionsBytes = (questions: readonly unknown[]): number =>
  new TextEncoder().encode(JSON.stringify(questions)).length;

/** The waivers an event holds (its waivers are one bounded Query). */
export const MAX_WAIVERS = 50;
