import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getEvent } from '#shared/events/data/events';
import { wholeEvent } from '#shared/events/use-cases/event-reads';
import { placeOrder } from '../support/factories/orders.ts';
import { call, getPage, idsOf } from '../support/api.ts';
import { createEventByApi, newWindow, patchEvent, unix } from '../support/events.ts';
import { customerToken } from '../support/tokens.ts';
import { unusedCustomerId } from '../support/customers.ts';

/**
 * Unpublishing and republishing a sold event (shared/lists/README.md "Portal"): a customer's
 * link to an event holds no publication, so the portal's `all` list follows the event's
 * publication now, whenever the customer ordered: once while published, once while not, and
 * never for a customer without an order.
 */
const PORTAL = '/api/v2/my-account';

const list = async (customerId: number, query: string) =>
  getPage<{ id: string }>(`${PORTAL}/event?${query}`, await customerToken(customerId));

/** A unique word of letters, so a search for it finds only this test's events. */
const word = () => `Zq${Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(0, 26))).join('')}`;

/** An event by the routes, with one type, and its record as the order factory takes it. */
async function sellable(start: string, title: string) {
  const made = await createEventByApi({ title, start, ticketTypes: [{ name: 'Entry', price: 5, total: 50 }] });
  return wholeEvent(await getEvent(made.id));
}

async function publish(eventId: number, published: boolean) {
  const answer = await patchEvent(eventId, { published });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/**
 * The customer's unpublished linked events as the default query counts them: its totalCount
 * less an orderless customer's (the published count, which other test files move too: read
 * again until it held still across both reads).
 */
async function privateCount(customerId: number): Promise<number> {
  const nobody = unusedCustomerId();
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = await list(nobody, '_limit=1');
    const mine = await list(customerId, '_limit=1');
    const after = await list(nobody, '_limit=1');
    expect(mine.totalCountIsEstimate ?? false).toBe(false);
    if (before.totalCount === after.totalCount) return mine.totalCount - after.totalCount;
  }
  throw new Error('the published count kept moving');
}

describe('an organiser unpublishes and republishes a sold event', () => {
  it('keeps it, once and counted exactly, for its customers, and hides it from everyone else', async () => {
    const w = newWindow();
    const range = `fromEventStart=${unix(w.from)}&toEventStart=${unix(w.to)}`;
    const text = word();
    const sold = await sellable(w.at(1), `Open air ${text}`);
    const draft = await sellable(w.at(2), `Rehearsal ${text}`);
    const [early, late, nobody] = [unusedCustomerId(), unusedCustomerId(), unusedCustomerId()];
    await publish(sold.id, true);
    await placeOrder(sold, early, [sold.ticketTypes[0]!.id]); // while published
    await placeOrder(draft, late, [draft.ticketTypes[0]!.id]); // while a draft
    await placeOrder(draft, early, [draft.ticketTypes[0]!.id]);

    const expectList = async (customerId: number, ids: number[]) => {
      for (const query of [range, `search=${text.toLowerCase()}&${range}`]) {
        const page = await list(customerId, query);
        expect(idsOf(page), query).toEqual(ids);
        expect(page).toMatchObject({ totalCount: ids.length, next: null });
        expect(page).not.toHaveProperty('totalCountIsEstimate');
      }
    };
    await expectList(early, [sold.id, draft.id]);
    await expectList(late, [sold.id, draft.id]);
    await expectList(nobody, [sold.id]);
    expect(await privateCount(early)).toBe(1);
    expect(await privateCount(late)).toBe(1);

    await publish(sold.id, false);
    await expectList(early, [sold.id, draft.id]);
    await expectList(late, [draft.id]);
    await expectList(nobody, []);
    expect(await privateCount(early)).toBe(2);
    expect(await privateCount(late)).toBe(1);
    // Its types stay readable to the customer who holds an order for it, and to no one else.
    const types = `${PORTAL}/ticket-type/${sold.id}`;
    expect((await call('GET', types, { token: await customerToken(early) })).status).toBe(200);
    expect((await call('GET', types, { token: await customerToken(late) })).status).toBe(404);

    await publish(sold.id, true);
    await publish(draft.id, true);
    for (const customerId of [early, late, nobody]) await expectList(customerId, [sold.id, draft.id]);
    expect(await privateCount(early)).toBe(0);
    expect(await privateCount(late)).toBe(0);
    // `return=orders` lists what was ordered, whatever the publication.
    expect(idsOf(await list(late, `return=orders&${range}`))).toEqual([draft.id]);
    expect(idsOf(await list(early, `return=orders&${range}`))).toEqual([sold.id, draft.id]);
  });

  it('pages the merged list by cursor without a duplicate when most of it is linked and published', async () => {
    const w = newWindow();
    const range = `fromEventStart=${unix(w.from)}&toEventStart=${unix(w.to)}`;
    const customer = unusedCustomerId();
    const events = [];
    for (let day = 1; day <= 5; day++) events.push(await sellable(w.at(day), `Series ${word()}`));
    for (const event of events.slice(0, 4)) {
      await publish(event.id, true);
      await placeOrder(event, customer, [event.ticketTypes[0]!.id]);
    }
    await placeOrder(events[4]!, customer, [events[4]!.ticketTypes[0]!.id]);
    await publish(events[1]!.id, false);

    const seen: number[] = [];
    let query = `${range}&_limit=2`;
    for (let page = 0; page < 5; page++) {
      const answer = await list(customer, query);
      seen.push(...idsOf(answer));
      if (!answer.next) break;
      query = `${range}&_limit=2&_cursor=${encodeURIComponent(answer.next)}`;
    }
    expect(seen).toEqual(events.map((event) => event.id));
  });
});
