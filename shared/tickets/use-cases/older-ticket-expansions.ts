import { eventTimeZones } from '../../events/data/events.ts';
import { customerSummaries, orderAffiliates, waveTimes } from '../../lists/older-tickets.ts';
import type { ListWaveTime, OlderTicketInclude, PageRelations } from '../domain/older-ticket-view.ts';
import type { TicketRecord } from '../domain/ticket.ts';
import type { TicketWaiver } from '../../events/domain/waivers.ts';
import { formatInTimeZone } from '../../domain/zoned-time.ts';
import { listTicketWaivers } from './ticket-waivers.ts';

/** `GET /ticket`'s expansions (`_include`) of a page: each one batch per page, those not asked for not read. */
export async function readRelations(
  records: TicketRecord[],
  include: readonly OlderTicketInclude[],
): Promise<PageRelations> {
  const ids = <T>(pick: (record: TicketRecord) => T | null | undefined) =>
    records.flatMap((record) => pick(record) ?? []) as T[];
  const [affiliates, waves, users, waivers] = await Promise.all([
    include.includes('promoter') ? orderAffiliates(ids((record) => record.orderId)) : new Map<number, string | null>(),
    include.includes('waveTime') ? wavesOf(records) : new Map(),
    include.includes('user') ? customerSummaries(ids((record) => record.customerId)) : new Map(),
    include.includes('waivers') ? waiversOf(records) : new Map<number, TicketWaiver[]>(),
  ]);
  return { affiliates, waves, users, waivers };
}

/** The page's start waves, their `startTime` in their event's offset (an event-local time, as GET /my-account/wave-time answers it). */
async function wavesOf(records: TicketRecord[]): Promise<Map<string, ListWaveTime>> {
  const wanted = records.flatMap((record) =>
    record.waveTimeId == null ? [] : [{ eventId: record.eventId, id: record.waveTimeId }],
  );
  if (!wanted.length) return new Map();
  const [waves, zones] = await Promise.all([waveTimes(wanted), eventTimeZones(wanted.map((wave) => wave.eventId))]);
  return new Map(
    [...waves].map(([key, wave]) => [
      key,
      { ...wave, startTime: formatInTimeZone(new Date(wave.startTime), zones.get(Number(key.split('/')[0])) ?? 'UTC') },
    ]),
  );
}

/** Each ticket's waivers as `GET /tickets/{id}/waivers` answers them (a page of at most MAX_WAIVER_PAGE). */
async function waiversOf(records: TicketRecord[]): Promise<Map<number, TicketWaiver[]>> {
  // A deleted ticket (the sync lists them) has no waivers to sign any more.
  const lists = await Promise.all(records.map((record) => (record.deleted ? [] : listTicketWaivers(record.id))));
  return new Map(records.map((record, i) => [record.id, lists[i]!]));
}
