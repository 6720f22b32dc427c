import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { backfillTicketIndexes } from '../../bin/maintenance/migrations/backfill-ticket-indexes.ts';
import { backfillTicketLists } from '../../bin/maintenance/migrations/backfill-ticket-lists.ts';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { adminToken } from '../support/tokens.ts';

/** Makes a ticket look written before the release: no purchasedDate, update-time keys (across and per event), purchase entry or barcode item. */
async function asBeforeTheRelease(id: number, barcode: string, extra: { barcode?: string } = {}) {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.ticket(id),
      UpdateExpression: `REMOVE GSI6PK, GSI6SK, GSI5PK, GSI5SK, purchasedDate${extra.barcode ? ' SET barcode = :barcode' : ''}`,
      ...(extra.barcode ? { ExpressionAttributeValues: { ':barcode': extra.barcode } } : {}),
    }),
  );
  await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.barcode(barcode) }));
  await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.ticketPurchaseEntry(id) }));
}
const item = async (id: number) =>
  (await db.send(new GetCommand({ TableName: tableName(), Key: keys.ticket(id) }))).Item!;

describe('the index backfill (bin/maintenance/migrations/backfill-ticket-indexes.ts)', () => {
  it('gives older tickets purchasedDate, the update-time keys and their barcode item (the list backfill then their purchase entry), and reports duplicate barcodes', async () => {
    const token = await adminToken(['tickets:read', 'tickets:write'], 717_301);
    const event = await seedEvent();
    const [kept, copy, gone] = await seedTickets(event, event.ticketTypes[0]!.id, 3);
    expect((await call('DELETE', `/api/v2/tickets/${gone!.id}`, { token })).status).toBeLessThan(300);
    await asBeforeTheRelease(kept!.id, kept!.barcode);
    await asBeforeTheRelease(copy!.id, copy!.barcode, { barcode: kept!.barcode });
    await asBeforeTheRelease(gone!.id, gone!.barcode);
    expect(await call('GET', `/api/v2/ticket?barcode=${kept!.barcode}`, { token })).toMatchObject({
      body: { totalCount: 0 },
    });

    const outcome = await backfillTicketIndexes({ ids: [kept!.id, copy!.id, gone!.id] });
    expect(outcome.updated).toBe(3);
    // Whichever of the two the Scan met first holds the barcode; the other is reported.
    expect(outcome.duplicateBarcodes).toHaveLength(1);
    const duplicate = outcome.duplicateBarcodes[0]!.ticketId;
    const holder = duplicate === kept!.id ? copy! : kept!;
    expect([kept!.id, copy!.id]).toContain(duplicate);
    const backfilled = await item(kept!.id);
    expect(backfilled).toMatchObject({
      purchasedDate: kept!.created,
      GSI6SK: `${kept!.updated}#${String(kept!.id).padStart(10, '0')}`,
    });
    expect(await item(copy!.id)).toMatchObject({ GSI6PK: expect.stringMatching(/^TICKET_UPDATES#/) });
    expect(await item(gone!.id)).toMatchObject({ GSI6PK: expect.stringMatching(/^TICKET_UPDATES#/) });
    // The ticket item is in no list index; the list backfill gives the live ones their purchase entry.
    expect(backfilled).not.toHaveProperty('GSI5PK');
    await backfillTicketLists({ events: [event.id] });
    const entry = await db.send(new GetCommand({ TableName: tableName(), Key: keys.ticketPurchaseEntry(kept!.id) }));
    expect(entry.Item).toMatchObject({ GSI5PK: keys.eventPurchases(event.id).value });
    // And the record its key in its event's own update shards (which the list backfill sets where the purchase key was).
    expect(await item(kept!.id)).toMatchObject({ GSI5PK: expect.stringMatching(`^EVENT_UPDATES#${event.id}#`) });
    expect(
      (await db.send(new GetCommand({ TableName: tableName(), Key: keys.ticketPurchaseEntry(gone!.id) }))).Item,
    ).toBeUndefined();
    const found = await call('GET', `/api/v2/ticket?barcode=${kept!.barcode}`, { token });
    expect(found.body.data.map((ticket: { id: number }) => ticket.id)).toEqual([holder.id]);
    const earliest = [kept!.created, copy!.created].sort()[0];
    const bought = await call('GET', `/api/v2/ticket?eventId=${event.id}&purchasedFrom=${earliest}`, { token });
    // The purchase index answers in (purchasedDate, id) order.
    const byPurchase = [kept!, copy!]
      .sort((a, b) => a.created.localeCompare(b.created) || a.id - b.id)
      .map((ticket) => ticket.id);
    expect(bought.body.data.map((ticket: { id: number }) => ticket.id)).toEqual(byPurchase);
    // Safe to re-run: the same keys again, the duplicate still reported.
    expect(await backfillTicketIndexes({ ids: [kept!.id, copy!.id] })).toMatchObject({
      updated: 2,
      duplicateBarcodes: [{ ticketId: duplicate }],
    });
  });
});
