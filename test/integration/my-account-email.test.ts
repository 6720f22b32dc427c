import { beforeAll, describe, expect, it } from 'vitest';
import { getOrder } from '#shared/selling/data/orders';
import { sellOrder } from '#shared/selling/use-cases/sell-order';
import { readTicketRecords } from '#shared/tickets/data/ticket-records';
import { seedEvent } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { signedInCustomer, type TestCustomer } from '../support/customers.ts';
import { mailTo } from '../support/mail.ts';
import { tightestLeft } from '../support/rate-limits.ts';
import { listsCaughtUp } from '../support/lists-caught-up.ts';

const EMAIL = '/api/v2/my-account/email';
const send = (customer: TestCustomer, body: unknown) => call('PUT', EMAIL, { token: customer.token, body });

describe('PUT /my-account/email', () => {
  let customer: TestCustomer;

  beforeAll(async () => {
    customer = await signedInCustomer();
  });

  it("sends the account details to the account's own address, read back from SES", async () => {
    const before = (await mailTo(customer.email)).length;
    const response = await send(customer, { email: customer.email, type: 'account_details' });
    expect(response.status, response.raw).toBe(200);
    expect(response.body).toEqual({ count: 1, data: { sent: true, type: 'account_details', email: customer.email } });
    const mails = await mailTo(customer.email);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)).toMatchObject({ subject: 'Your account details' });
    expect(mails.at(-1)!.body.text).toContain(`Email address: ${customer.email}`);
  });

  it('sends the newest order with its tickets, and the tickets, from what the account holds', async () => {
    const buyer = await signedInCustomer();
    const event = await seedEvent({ published: true, questions: [] });
    const sold = await sellOrder(
      { id: 999_001 },
      {
        eventId: event.id,
        lines: [
          { typeId: event.ticketTypes[0]!.id, quantity: 1 },
          { typeId: event.ticketTypes[1]!.id, quantity: 1 },
        ],
        payment: { method: 'card_present' },
        buyer: { emailAddress: buyer.email, firstName: 'Casey', lastName: 'Customer' },
        attendees: [
          { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test' },
          { firstName: 'Alan', lastName: 'Turing', email: 'alan@example.test' },
        ],
        customerId: buyer.id,
      },
    );
    const order = (await getOrder(Number(sold.id)))!;
    const tickets = [...(await readTicketRecords(order.ticketIds)).values()];
    // The account's lists hold the tickets once the stream's consumer has written their entries.
    await listsCaughtUp(tickets);

    expect((await send(buyer, { email: buyer.email, type: 'order_confirmation' })).status).toBe(200);
    const confirmation = (await mailTo(buyer.email)).at(-1)!;
    expect(confirmation.subject).toBe(`Your order ${order.id}`);
    for (const ticket of tickets) expect(confirmation.body.text).toContain(`barcode ${ticket.barcode}`);

    expect((await send(buyer, { email: buyer.email.toUpperCase(), type: 'tickets' })).status).toBe(200);
    const list = (await mailTo(buyer.email)).at(-1)!;
    expect(list.subject).toBe('Your tickets');
    expect(list.body.text).toContain('Ada Lovelace');
    expect(list.body.text).toContain('Alan Turing');
  });

  it('refuses another address with a 400 naming body.email, and sends nothing', async () => {
    const stranger = 'stranger@example.test';
    const response = await send(customer, { email: stranger, type: 'account_details' });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ path: 'body.email', message: 'Not the address of this account.' }]);
    expect(await mailTo(stranger)).toEqual([]);
  });

  it('refuses an unknown type with a 400 listing the allowed values', async () => {
    const response = await send(customer, { email: customer.email, type: 'newsletter' });
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({ path: 'body.type' });
    expect(response.body.errors[0].message).toContain('account_details, order_confirmation, tickets');
  });

  it('allows five mails an hour per customer, then answers 429 with Retry-After', async () => {
    const busy = await signedInCustomer();
    const left: number[] = [];
    for (let i = 0; i < 5; i++) {
      const sent = await send(busy, { email: busy.email, type: 'account_details' });
      expect(sent.status).toBe(200);
      left.push(tightestLeft(sent));
    }
    // The client sees the refusal coming (RateLimit headers).
    expect(left).toEqual([4, 3, 2, 1, 0]);
    const refused = await send(busy, { email: busy.email, type: 'account_details' });
    expect(refused.status).toBe(429);
    expect(tightestLeft(refused)).toBe(0);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await mailTo(busy.email)).filter((mail) => mail.subject === 'Your account details')).toHaveLength(5);
  });
});
