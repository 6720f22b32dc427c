import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { QuestionResource, ShippingOptionResource } from '#shared/portal/contract/portal-checkout';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { commandsSent } from '../support/command-tally.ts';
import { countReads } from '../support/dynamo-reads.ts';
import { createOwnTable, dropOwnTable } from '../support/fuzz-table.ts';
import { adminToken, customerToken } from '../support/tokens.ts';
import { unusedCustomerId } from '../support/customers.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so the shipping methods listed are only its own.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-checkout-catalogue-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

/**
 * What the portal's checkout form asks: the shipping methods a buyer may choose and an event's
 * attendee questions. Neither is per customer: another customer gets the same answer; an event the customer cannot
 * see is 404 as its ticket types are.
 */
const BASE = '/api/v2/my-account';

beforeAll(() => createOwnTable(table.name));
afterAll(async () => {
  await dropOwnTable(table.name);
  if (table.previous === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = table.previous;
});

describe('GET /my-account/shipping-method', () => {
  it('lists every method in id order with what a buyer chooses by, the same for every customer, one bounded Query', async () => {
    const staff = await adminToken();
    const made = [];
    for (const body of [
      { name: 'E-ticket', hasETickets: true },
      {
        name: 'Courier',
        description: 'Tracked, 2 days',
        charge: 9.5,
        twoPlusCharge: 1.25,
        chargeType: 'per_ticket',
        requiresShippingInfo: true,
        allowInternational: true,
        hasBadges: true,
      },
      { name: 'Post', charge: 3, requiresShippingInfo: true },
    ]) {
      const created = await call('POST', '/api/v2/shipping-method?result=object', { token: staff, body });
      expect(created.status, created.raw).toBe(201);
      made.push(created.body.data);
    }
    const [eTicket, courier, post] = made;

    const token = await customerToken(unusedCustomerId());
    const listed = await call('GET', `${BASE}/shipping-method`, { token });
    expect(listed.status, listed.raw).toBe(200);
    expect(listed.body).toEqual({
      totalCount: 3,
      count: 3,
      limit: 25,
      offset: 0,
      data: [
        {
          id: eTicket.id,
          name: 'E-ticket',
          description: '',
          charge: 0,
          twoPlusCharge: 0,
          chargeType: 'per_order',
          hasETickets: true,
          requiresShippingInfo: false,
          allowInternational: false,
        },
        {
          id: courier.id,
          name: 'Courier',
          description: 'Tracked, 2 days',
          charge: 9.5,
          twoPlusCharge: 1.25,
          chargeType: 'per_ticket',
          hasETickets: false,
          requiresShippingInfo: true,
          allowInternational: true,
        },
        {
          id: post.id,
          name: 'Post',
          description: '',
          charge: 3,
          twoPlusCharge: 0,
          chargeType: 'per_order',
          hasETickets: false,
          requiresShippingInfo: true,
          allowInternational: false,
        },
      ],
    });
    for (const entry of listed.body.data) expect(ShippingOptionResource.safeParse(entry).success).toBe(true);

    const other = await call('GET', `${BASE}/shipping-method`, { token: await customerToken(unusedCustomerId()) });
    expect(other.body).toEqual(listed.body);

    const page = await countReads(() => call('GET', `${BASE}/shipping-method?_limit=1&_offset=1`, { token }));
    expect(page.result.body).toMatchObject({
      totalCount: 3,
      count: 1,
      limit: 1,
      offset: 1,
      data: [{ id: courier.id }],
    });
    expect(page.reads.queriesWithoutLimit).toBe(0);
    // The session check, the count and the two methods up to the page's end.
    expect(page.reads.itemsRead).toBeLessThanOrEqual(4);
    expect(await commandsSent(() => call('GET', `${BASE}/shipping-method`, { token }))).not.toContain('ScanCommand');

    const refused = await call('GET', `${BASE}/shipping-method?_limit=101`, { token });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.errors)).toContain('query._limit');
    expect((await call('GET', `${BASE}/shipping-method?name=Post`, { token })).status).toBe(400);
  });
});

describe('GET /my-account/question/{eventId}', () => {
  it("answers a published event's questions with how each is answered, the same for every customer", async () => {
    const event = await seedEvent({ published: true });
    const [contact, size] = event.questions;
    const expected = {
      totalCount: 2,
      count: 2,
      limit: 25,
      offset: 0,
      data: [
        { id: contact!.id, text: 'Emergency contact', type: 'text', required: true, options: [] },
        {
          id: size!.id,
          text: 'T-shirt size',
          type: 'choice',
          required: false,
          options: size!.options.map((option) => ({ id: option.id, text: option.text })),
        },
      ],
    };
    for (const customer of [unusedCustomerId(), unusedCustomerId()]) {
      const answer = await call('GET', `${BASE}/question/${event.id}`, { token: await customerToken(customer) });
      expect(answer.status, answer.raw).toBe(200);
      expect(answer.body).toEqual(expected);
      for (const entry of answer.body.data) expect(QuestionResource.safeParse(entry).success).toBe(true);
    }
    expect(expected.data[1]!.options.map((option) => option.text)).toEqual(['S', 'M', 'L']);
    const token = await customerToken(unusedCustomerId());
    const second = await call('GET', `${BASE}/question/${event.id}?_limit=1&_offset=1`, { token });
    expect(second.body).toMatchObject({ totalCount: 2, count: 1, data: [{ id: size!.id }] });
    // The questions are on the event item: GetItems only (the event, the customer's link to it), no Query, no Scan.
    const sent = await commandsSent(() => call('GET', `${BASE}/question/${event.id}`, { token }));
    expect(sent.filter((command) => command !== 'GetItemCommand')).toEqual([]);
  });

  it('answers an event without questions with an empty page', async () => {
    const event = await seedEvent({ published: true, questions: [] });
    const answer = await call('GET', `${BASE}/question/${event.id}`, {
      token: await customerToken(unusedCustomerId()),
    });
    expect(answer.body).toEqual({ totalCount: 0, count: 0, limit: 25, offset: 0, data: [] });
  });

  it('answers 404 for an unpublished event the customer holds no order for (its buyer gets it), and for an unknown one', async () => {
    const hidden = await seedEvent({ published: false });
    const buyer = unusedCustomerId();
    await placeOrder(hidden, buyer, [hidden.ticketTypes[0]!.id]);
    const token = await customerToken(unusedCustomerId());
    const refused = await call('GET', `${BASE}/question/${hidden.id}`, { token });
    expect(refused.status).toBe(404);
    expect(refused.body.detail).toBe(`Event ${hidden.id} not found.`);
    expect(JSON.stringify(refused.body)).not.toContain('Emergency contact');
    const own = await call('GET', `${BASE}/question/${hidden.id}`, { token: await customerToken(buyer) });
    expect(own.body.totalCount).toBe(2);
    expect((await call('GET', `${BASE}/question/999999999`, { token })).status).toBe(404);
    expect((await call('GET', `${BASE}/question/abc`, { token })).status).toBe(400);
  });
});
