import { DEFAULT_CURRENCY, formatAmount, toMajor } from '../../money.ts';
import { saleCurrency, type Event, type TicketType, type WaveTime } from '../../events/domain/event.ts';
import { paidForTicket } from '../../selling/domain/sale-prices.ts';
import type { TicketRecord } from './ticket.ts';

/**
 * What a ticket shows its holder, on paper (ticket-pdf.ts) and in the order mail: the event, when and where
 * in the event's own time zone, the attendee, the type, the wave, and the barcode the gate scans.
 */
export interface PrintedTicket {
  ticketId: number;
  orderId: number | null;
  barcode: string;
  eventTitle: string;
  /** `Tuesday, 1 June 2027 at 09:00 (Europe/Amsterdam)`; the date alone when the event hides its time; null when it hides its date. */
  when: string | null;
  /** The venue and its address, as the organiser wrote them; null when neither is set. */
  venue: string | null;
  attendee: string;
  typeName: string;
  /** The wave's name and start time (event-local); null for a ticket without a wave. */
  wave: string | null;
  /** What it cost, its tax and its part of the booking fee (`EUR 121.00, tax 21.00 included`); null when free. */
  price: string | null;
}

/** `instant` as a person reads it in the event's zone (en-GB; an unknown zone is shown in UTC, named so). */
export function localTime(instant: string, timeZone: string, withTime = true): string {
  const options: Intl.DateTimeFormatOptions = withTime
    ? { dateStyle: 'full', timeStyle: 'short' }
    : { dateStyle: 'full' };
  let zone = timeZone;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-GB', { ...options, timeZone });
  } catch {
    zone = 'UTC';
    format = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: zone });
  }
  return `${format.format(new Date(instant))}${withTime ? ` (${zone})` : ''}`;
}

export const attendeeName = (ticket: Pick<TicketRecord, 'partyMember' | 'partyMemberLastName'>): string =>
  `${ticket.partyMember} ${ticket.partyMemberLastName}`.trim() || '(no name yet)';

/** The printed view of a ticket, from its record and its event, type and wave (any of which may be gone). */
export function printedTicket(
  ticket: TicketRecord,
  setting: { event: Event | undefined; type: TicketType | undefined; wave: WaveTime | undefined },
): PrintedTicket {
  const { event, type, wave } = setting;
  const timeZone = event?.timezone ?? 'UTC';
  const venue = [event?.venue, event?.venueAddress].filter((part) => part?.trim()).join(', ');
  return {
    ticketId: ticket.id,
    orderId: ticket.orderId,
    barcode: ticket.barcode,
    eventTitle: event?.title ?? `Event ${ticket.eventId}`,
    when: !event || event.hideDate ? null : localTime(event.startsAt, timeZone, !event.hideTime),
    venue: venue || null,
    attendee: attendeeName(ticket),
    typeName: type?.name ?? `Ticket type ${ticket.typeId}`,
    wave: wave ? `${wave.name}, starting ${localTime(wave.startTime, timeZone)}` : null,
    price: priceText(ticket, event ? saleCurrency(event) : DEFAULT_CURRENCY),
  };
}

/** The ticket's price with its tax in, the tax, and its part of the booking fee: the figures its order's total holds. */
function priceText(ticket: Pick<TicketRecord, 'price' | 'taxAmount' | 'bookingFee'>, currency: string): string | null {
  const cost = paidForTicket({ ...ticket, bookingFee: 0 }, currency);
  const fee = ticket.bookingFee ?? 0;
  if (cost === 0 && fee === 0) return null;
  return [
    formatAmount(toMajor(cost, currency), currency),
    ticket.taxAmount ? `, tax ${formatAmount(ticket.taxAmount, currency)} included` : '',
    fee ? `; booking fee ${formatAmount(fee, currency)}` : '',
  ].join('');
}
