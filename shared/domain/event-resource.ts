import type { CreatedEvent, Event, TypeWithSold } from './event.ts';
import { DEFAULT_RESERVATION_MINUTES } from './reservation.ts';
import { holdCaps } from './hold-limits.ts';
import type { WaiverKind } from './waivers.ts';

/**
 * An event as the administrators' routes answer it (`/events`): the listing fields in ISO
 * form (not the portal's strings), and, for one event, its ticket types with `sold` and
 * `total`, waves, questions and teams; and its history's entries. The schemas the handlers
 * declare (the OpenAPI document's and the tests'): shared/http/contract/event.ts and
 * event-parts.ts, each tied to its type here.
 */

export interface TicketTypeView {
  id: number;
  eventId: number;
  name: string;
  description: string;
  ordering: number;
  price: number;
  sold: number;
  total: number;
  grants: number[];
}

export interface EventSummary {
  id: number;
  title: string;
  start: string;
  timezone: string;
  currency: string | null;
  venue: string;
  venueAddress: string;
  description: string;
  shortDescription: string;
  category: string;
  location: string;
  sefUrl: string;
  smallPic: string | null;
  largePic: string | null;
  ordering: number;
  onSaleDate: string | null;
  cutOff: string | null;
  publishedDate: string | null;
  published: boolean;
  hideDate: boolean;
  hideTime: boolean;
  capacity: number;
  reservationMinutes: number;
  maxHeldPerCustomer: number;
  maxHeldPerNetwork: number;
  version: number;
  created: string;
  updated: string | null;
  updatedBy: number | null;
}

export interface EventView extends EventSummary {
  ticketTypes: TicketTypeView[];
  waveTimes: { id: number; eventId: number; name: string; startTime: string; capacity: number }[];
  questions: { id: number; text: string; required: boolean; options: { id: number; text: string; sku?: string }[] }[];
  teams: { id: number; eventId: number; name: string }[];
  waivers: { id: number; ticketTypeId: number | null; title: string; kind: WaiverKind; versionHash: string }[];
}

export const EVENT_HISTORY_ACTIONS = [
  'created',
  'updated',
  'published',
  'unpublished',
  'deleted',
  'type_created',
  'type_updated',
  'type_deleted',
  'team_created',
  'team_renamed',
  'team_deleted',
  'wave_created',
  'wave_updated',
  'wave_deleted',
  'question_created',
  'question_updated',
  'question_deleted',
  'waiver_created',
  'waiver_updated',
  'waiver_deleted',
] as const;

export interface EventHistoryEntry {
  version: number;
  at: string;
  by: number;
  action: (typeof EVENT_HISTORY_ACTIONS)[number];
  changes: Record<string, { from: unknown; to: unknown }>;
}

/** The stored event as a summary. */
export function toEventSummary(event: Event): EventSummary {
  return {
    id: event.id,
    title: event.title,
    start: event.startsAt,
    timezone: event.timezone,
    currency: event.currency ?? null,
    venue: event.venue ?? '',
    venueAddress: event.venueAddress ?? '',
    description: event.description ?? '',
    shortDescription: event.shortDescription ?? '',
    category: event.category ?? '',
    location: event.location ?? '',
    sefUrl: event.sefUrl ?? '',
    smallPic: event.smallPic ?? null,
    largePic: event.largePic ?? null,
    ordering: event.ordering ?? 0,
    onSaleDate: event.onSaleDate ?? null,
    cutOff: event.cutOff ?? null,
    publishedDate: event.publishedDate ?? null,
    published: event.published ?? false,
    hideDate: event.hideDate ?? false,
    hideTime: event.hideTime ?? false,
    capacity: event.capacity ?? 0,
    reservationMinutes: event.reservationMinutes ?? DEFAULT_RESERVATION_MINUTES,
    maxHeldPerCustomer: holdCaps(event).perCustomer,
    maxHeldPerNetwork: holdCaps(event).perNetwork,
    version: event.version ?? 1,
    created: event.created,
    updated: event.updated ?? null,
    updatedBy: event.updatedBy ?? null,
  };
}

const typeView = (type: TypeWithSold): TicketTypeView => ({
  id: type.id,
  eventId: type.eventId,
  name: type.name,
  description: type.description ?? '',
  ordering: type.ordering ?? 0,
  price: type.price,
  sold: type.sold,
  total: type.total,
  grants: type.grants ?? [],
});
export const toTicketTypeView = typeView;

/** The whole event: its types in the portal's order (`ordering`, then id). */
export function toEventView(event: CreatedEvent & { ticketTypes: TypeWithSold[] }): EventView {
  return {
    ...toEventSummary(event),
    ticketTypes: [...event.ticketTypes].sort((a, b) => a.ordering - b.ordering || a.id - b.id).map(typeView),
    waveTimes: event.waveTimes.map(({ id, eventId, name, startTime, capacity }) => ({
      id,
      eventId,
      name,
      startTime,
      capacity,
    })),
    questions: (event.questions ?? []).map((question) => ({
      id: question.id,
      text: question.text,
      required: question.required,
      options: question.options.map((option) => ({
        id: option.id,
        text: option.text,
        ...(option.sku === undefined ? {} : { sku: option.sku }),
      })),
    })),
    teams: event.teams.map(({ id, eventId, name }) => ({ id, eventId, name })),
    waivers: (event.waivers ?? []).map(({ id, ticketTypeId, title, kind, versionHash }) => ({
      id,
      ticketTypeId,
      title,
      kind,
      versionHash,
    })),
  };
}
