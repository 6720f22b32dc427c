import { randomInt } from 'node:crypto';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { eventSearchBuckets } from '#shared/domain/portal-lists';
import { backfillPortalEvents } from '../../bin/maintenance/migrations/backfill-portal-events.ts';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { getPage, idsOf } from '../support/api.ts';
import { unusedCustomerId } from '../support/customers.ts';
import { customerToken } from '../support/tokens.ts';

/**
 * Migration 6 (bin/maintenance/migrations/backfill-portal-events.ts): events and links stored
 * before the portal's lists walked by cursor get their search entries and start-ordered keys,
 * and the published events are counted; a second run changes nothing.
 */
const BASE = '/api/v2/my-account';
const DAY = 86_400;
const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(0, 26))).join('');

describe('the portal events backfill', () => {
  it('gives older published events their search entries and older links their start-ordered keys, and recounts the published events', async () => {
    const from = Date.UTC(2600, 0, 1) / 1000 + randomInt(0, 1_000_000) * DAY;
    const at = (day: number) => new Date((from + day * DAY) * 1000).toISOString();
    const word = `Bf${letters(8)}`;
    const customer = unusedCustomerId();
    const shown = await seedEvent({ title: `${word} Open`, startsAt: at(1), published: true });
    const hidden = await seedEvent({ title: `${word} Members`, startsAt: at(2) });
    await placeOrder(shown, customer, [shown.ticketTypes[0]!.id]);
    await placeOrder(hidden, customer, [hidden.ticketTypes[0]!.id]);
    // As stored before the release: no search entries, links without their index keys, the count not kept.
    for (const bucket of eventSearchBuckets(shown).keys())
      await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.eventSearchEntry(shown.id, bucket) }));
    for (const event of [shown, hidden])
      await db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.customerEvent(customer, event.id),
          UpdateExpression: 'REMOVE GSI1PK, GSI1SK, GSI2PK, GSI2SK',
        }),
      );
    const token = await customerToken(customer);
    const window = `fromEventStart=${from}&toEventStart=${from + 10 * DAY}`;
    expect(idsOf(await getPage(`${BASE}/event?search=${word}&${window}`, token))).toEqual([]);
    expect(idsOf(await getPage(`${BASE}/event?return=orders&${window}`, token))).toEqual([]);

    const outcome = await backfillPortalEvents({ events: [shown.id, hidden.id], customers: [customer] });
    expect(outcome).toMatchObject({ events: 1, links: 2 });
    expect(idsOf(await getPage(`${BASE}/event?search=${word}&${window}`, token))).toEqual([shown.id, hidden.id]);
    expect(idsOf(await getPage(`${BASE}/event?return=orders&${window}`, token))).toEqual([shown.id, hidden.id]);
    const count = await db.send(new GetCommand({ TableName: tableName(), Key: keys.publishedEventCount() }));
    expect(count.Item).toMatchObject({ kept: true, n: outcome.published });
    expect(outcome.published).toBeGreaterThan(0);

    // A second run writes no link again (the entries are put whole, the same).
    const again = await backfillPortalEvents({
      events: [shown.id, hidden.id],
      customers: [customer],
      run: 'again',
    });
    expect(again.links).toBe(0);
  }, 60_000);
});
