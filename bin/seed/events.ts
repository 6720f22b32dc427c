import { findCustomerByEmail } from '#shared/identity/data/customers';
import type { NewEvent } from '#shared/events/domain/event';
import { eventFor, wholeEvent } from '#shared/events/use-cases/event-reads';
import { placeOrder } from '../../test/support/factories/orders.ts';
import { organisedEvents, SEED_ORGANISER } from './organised-events.ts';

/**
 * `npm run seed -- --events N`: N published events of a platform a few seasons in, half
 * already over (events stay published after they end), half to come, over 2 years around
 * now: race titles, venues and addresses of a few dozen cities, each created and published
 * through the routes' use cases, batched (organised-events.ts), by the administrator with id 1
 * (`npm start`'s first, `admin@demo.test`). The demo customer (`casey@demo.test`, when
 * `npm start` seeded them) holds tickets for three of them. Deterministic for a given N.
 */
/** Events created, then published, per batch. */
const ROUND = 500;
const CITIES = [
  ['Berlin', 'Tempelhofer Feld', 'Tempelhofer Damm 1, 12101 Berlin'],
  ['Hamburg', 'Stadtpark', 'Saarlandstraße 1, 22303 Hamburg'],
  ['Munich', 'Olympiapark', 'Spiridon-Louis-Ring 21, 80809 München'],
  ['Vienna', 'Prater Hauptallee', 'Hauptallee 1, 1020 Wien'],
  ['Zurich', 'Seebecken', 'Utoquai 1, 8008 Zürich'],
  ['Amsterdam', 'Vondelpark', 'Vondelpark 1, 1071 AA Amsterdam'],
  ['Copenhagen', 'Fælledparken', 'Øster Allé 1, 2100 København'],
  ['London', 'Hyde Park', 'Serpentine Road, London W2 2UH'],
  ['Dublin', 'Phoenix Park', 'Chesterfield Avenue, Dublin 8'],
  ['Lisbon', 'Parque das Nações', 'Alameda dos Oceanos, 1990-223 Lisboa'],
  ['Madrid', 'Parque del Retiro', 'Plaza de la Independencia 7, 28001 Madrid'],
  ['Milan', 'Parco Sempione', 'Piazza Sempione, 20154 Milano'],
  ['Prague', 'Stromovka', 'Královská obora, 170 00 Praha 7'],
  ['Oslo', 'Frognerparken', 'Nobels gate 32, 0268 Oslo'],
  ['Helsinki', 'Kaivopuisto', 'Kaivopuisto, 00140 Helsinki'],
  ['Edinburgh', 'Holyrood Park', "Queen's Drive, Edinburgh EH8 8HG"],
] as const;
const KINDS = ['Marathon', 'Half Marathon', '10K', 'Trail Run', 'Night Run', 'Triathlon', 'Cycle Classic', 'Fun Run'];
const SEASONS = ['Spring', 'Summer', 'Autumn', 'Winter'];
const DAY = 86_400_000;

export function eventInput(n: number, total: number, now = Date.now()): NewEvent {
  const [city, venue, address] = CITIES[n % CITIES.length]!;
  const kind = KINDS[Math.floor(n / CITIES.length) % KINDS.length]!;
  const season = SEASONS[Math.floor(n / (CITIES.length * KINDS.length)) % SEASONS.length]!;
  const edition = 1 + Math.floor(n / (CITIES.length * KINDS.length * SEASONS.length));
  // Spread over a year before and a year after now, at 08:00 or 18:30 UTC.
  const start = now - 365 * DAY + Math.floor((n / Math.max(1, total)) * 730) * DAY + (n % 2 ? 18.5 : 8) * 3_600_000;
  return {
    title: `${city} ${season} ${kind}${edition > 1 ? ` #${edition}` : ''}`,
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    startsAt: new Date(start).toISOString(),
    venue,
    venueAddress: address,
    description: `The ${season.toLowerCase()} ${kind.toLowerCase()} of ${city}, start and finish at ${venue}. Chip timing, medals for every finisher, water every 5 km.`,
    shortDescription: `${kind} in ${city}`,
    category: kind.includes('Cycle') ? 'Cycling' : 'Running',
    location: city,
    published: true,
    ticketTypes: [{ name: 'Entry', price: 25 + (n % 5) * 10, total: 2000 }],
    teams: [],
  };
}

export async function seedPublishedEvents(
  count: number,
  onProgress?: (done: number) => void,
): Promise<{ events: number; ids: number[]; first: number; last: number; demoOrders: number[] }> {
  const now = Date.now();
  const ids: number[] = [];
  for (let start = 0; start < count; start += ROUND) {
    const inputs = Array.from({ length: Math.min(ROUND, count - start) }, (_, i) => eventInput(start + i, count, now));
    ids.push(...(await organisedEvents(SEED_ORGANISER, inputs)));
    onProgress?.(ids.length);
  }
  const demo = await findCustomerByEmail('casey@demo.test');
  const demoOrders: number[] = [];
  if (demo)
    for (const id of [ids[0], ids[Math.floor(ids.length / 2)], ids.at(-1)].filter((one) => one !== undefined)) {
      const event = await wholeEvent(await eventFor({ id: SEED_ORGANISER, eventScope: undefined }, id));
      demoOrders.push((await placeOrder(event, demo.id, [event.ticketTypes[0]!.id])).id);
    }
  const sorted = [...ids].sort((a, b) => a - b);
  return { events: ids.length, ids, first: sorted[0] ?? 0, last: sorted.at(-1) ?? 0, demoOrders };
}
