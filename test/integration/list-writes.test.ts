import { describe, expect, it } from 'vitest';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import { historyEntry } from '#shared/tickets/domain/ticket-history';
import { listWrites, ticketChangeActions } from '#shared/lists/writes';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';

/** The item an action writes, by the kind of its sort key (`LIST#EVENT`, `SEARCH`, `STATS`, `POS`, `BOUGHT`…). */
function kindOf(action: Record<string, { Item?: { PK: string; SK: string }; Key?: { PK: string; SK: string } }>) {
  const { PK, SK } = Object.values(action)[0]!.Item ?? Object.values(action)[0]!.Key!;
  const kind = /^(LIST#EVENT|LIST#PURCHASE|LIST#ACCESS|LIST|SEARCH|STATS|POS|BOUGHT|TICKETS#count)/.exec(SK)?.[1] ?? SK;
  return `${PK.split('#')[0]} ${kind}`;
}

describe("the list engine's write hook (shared/lists/writes.ts)", () => {
  it("labels each action of a new ticket's transaction with the lists it keeps (its counts), and the commit sends every one", async () => {
    const event = await seedEvent();
    const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 1, { customerId: null });
    const record = (await readTicketRecord(ticket!.id))!;
    const writes = listWrites([{ before: null, after: record }]);
    const positions = writes.flatMap(({ action }) => {
      const sk = String(action.Update?.Key?.SK ?? '');
      return sk.startsWith('POS#') ? [sk.split('#')[1]] : [];
    });
    expect(positions).toEqual(['count']);
    const labels = new Map<string, string[]>();
    for (const { action, for: lists } of writes) {
      const kind = kindOf(action as never);
      expect(labels.get(kind) ?? lists, kind).toEqual(lists);
      labels.set(kind, [...lists]);
    }
    // The counts users see only: the list entries and their blocks are the stream consumer's (list-catch-up.ts), and of
    // the positions the transaction moves the all-events totals alone.
    expect(Object.fromEntries(labels)).toEqual({
      'TICKET_COUNTS STATS': ['tickets', 'check-in-stats'],
      'TICKET_POSITIONS POS': ['tickets', 'older-tickets'],
      'TICKET_COUNTS BOUGHT': ['older-tickets'],
    });
    // The commit's transaction holds each of them, beside the record's own actions.
    const history = historyEntry(null, record, { actor: { kind: 'system' }, action: 'create', at: record.created });
    const sent = ticketChangeActions([{ before: null, after: record, history }]).map((action) =>
      JSON.stringify(action),
    );
    for (const { action } of writes) expect(sent).toContain(JSON.stringify(action));
  });
});
