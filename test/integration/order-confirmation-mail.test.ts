import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { createShippingMethod } from '#shared/selling/data/shipping-methods';
import { readTicketRecords } from '#shared/tickets/data/ticket-records';
import { QR_OPTIONS } from '#shared/tickets/domain/qr-code';
import type { Order } from '#shared/selling/domain/order';
import { sendOrderConfirmation } from '#shared/selling/use-cases/order-confirmation';
import { unusedCustomerId } from '../support/customers.ts';
import { PORTAL_URL } from '../support/env.ts';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { mailTo, newAddress } from '../support/mail.ts';
import { checkedOut, payAsBrowser } from '../support/paid-checkout.ts';
import { useStripeStandIn } from '../support/stripe.ts';
import { adminToken } from '../support/tokens.ts';
import { claimedThenIssued } from '../support/paid-order-issuing.ts';

const shippingMethod = (overrides: { hasETickets: boolean; name: string }) =>
  createShippingMethod({
    description: '',
    charge: 2.5,
    twoPlusCharge: 1,
    chargeType: 'per_ticket',
    requiresShippingInfo: !overrides.hasETickets,
    allowInternational: false,
    hasBadges: false,
    ...overrides,
  });

/** A paid order of one General admission and one VIP ticket, in a wave, and its tickets as the checkout holds them. */
async function paidOrder(title = 'Canal 10K') {
  const event = await seedEvent({
    title,
    currency: 'EUR',
    timezone: 'Europe/Amsterdam',
    startsAt: '2027-06-01T07:00:00Z',
    venue: 'Museumplein',
    waveTimes: [{ name: 'Wave A', startTime: '2027-06-01T07:30:00Z', capacity: 500 }],
  });
  const sold = await placeOrder(event, unusedCustomerId(), [event.ticketTypes[0]!.id, event.ticketTypes[1]!.id]);
  const records = await readTicketRecords(sold.ticketIds);
  // Out of order on purpose: the mail follows the order's attendee order.
  const tickets = sold.ticketIds.map((id) => records.get(id)!).reverse();
  // The sale mailed its own confirmation to the buyer: the mail under test goes to an address of its own.
  return { event, order: { ...sold, emailAddress: newAddress('buyer') }, tickets };
}

/** The order as its checkout wrote it: the total is the reservation's, the methods' 3.50 for two tickets included. */
const withShipping = (order: Order): Order => ({ ...order, grandTotal: order.grandTotal + 3.5 });

describe('sendOrderConfirmation (the mail of a paid order)', () => {
  it('mails the buyer the lines, shipping, total, each ticket with its QR code inline, and the portal link', async () => {
    const { event, order, tickets } = await paidOrder();
    const method = await shippingMethod({ name: 'E-ticket', hasETickets: true });
    expect(await sendOrderConfirmation(withShipping(order), tickets, event, method)).toBe('sent');

    const [mail, ...more] = await mailTo(order.emailAddress);
    expect(more).toEqual([]);
    expect(mail!.from).toBe(process.env.EMAIL_FROM);
    expect(mail!.subject).toBe(`Your tickets for Canal 10K (order ${order.id})`);
    const text = mail!.body.text!;
    for (const line of [
      '1 × General admission: EUR 35.00',
      '1 × VIP: EUR 90.00',
      'Shipping: E-ticket: EUR 3.50',
      'Total: EUR 128.50',
      'Tuesday, 1 June 2027 at 09:00 (Europe/Amsterdam)',
      `Your orders and tickets in the portal: ${PORTAL_URL}`,
    ])
      expect(text).toContain(line);
    const [first, second] = order.ticketIds.map((id) => tickets.find((ticket) => ticket.id === id)!);
    expect(text.indexOf(`Ticket ${first!.id}:`)).toBeLessThan(text.indexOf(`Ticket ${second!.id}:`));
    expect(text).toContain(
      `Wave A, starting Tuesday, 1 June 2027 at 09:30 (Europe/Amsterdam), barcode ${first!.barcode}`,
    );

    const html = mail!.body.html!;
    expect(html).toContain(`href="${PORTAL_URL}"`);
    expect(mail!.attachments).toHaveLength(2);
    for (const ticket of [first!, second!]) {
      const image = mail!.attachments!.find((attachment) => attachment.contentId === `ticket-${ticket.id}@tickets`)!;
      expect(html).toContain(`src="cid:ticket-${ticket.id}@tickets"`);
      expect(html).toContain(ticket.barcode);
      expect(image).toMatchObject({
        contentType: 'image/png',
        contentDisposition: 'INLINE',
        filename: `ticket-${ticket.id}.png`,
      });
      // The image is qrcode's own rendering of the ticket's barcode, byte for byte.
      expect(Buffer.from(image.content, 'base64').equals(await QRCode.toBuffer(ticket.barcode, QR_OPTIONS))).toBe(true);
    }
  });

  it('says the tickets will be posted, and carries no barcode, for a shipping method without e-tickets', async () => {
    const { event, order, tickets } = await paidOrder();
    const method = await shippingMethod({ name: 'Royal Mail', hasETickets: false });
    expect(await sendOrderConfirmation(withShipping(order), tickets, event, method)).toBe('sent');
    const [mail] = await mailTo(order.emailAddress);
    expect(mail!.body.text).toContain('Your tickets will be posted to you (Royal Mail).');
    expect(mail!.body.text).toContain('Shipping: Royal Mail: EUR 3.50');
    expect(mail!.attachments ?? []).toEqual([]);
    for (const ticket of tickets) {
      expect(mail!.body.text).not.toContain(ticket.barcode);
      expect(mail!.body.html).not.toContain(ticket.barcode);
    }
    expect(mail!.body.html).not.toContain('cid:');
  });

  it('sends e-tickets without a shipping line when the order has no shipping method', async () => {
    const { event, order, tickets } = await paidOrder();
    expect(await sendOrderConfirmation(order, tickets, event, null)).toBe('sent');
    const [mail] = await mailTo(order.emailAddress);
    expect(mail!.body.text).not.toContain('Shipping');
    expect(mail!.attachments).toHaveLength(2);
  });

  it("escapes the organiser's and the buyer's text in the HTML part", async () => {
    const { event, order, tickets } = await paidOrder('Run <script>alert(1)</script> & "Walk"');
    await sendOrderConfirmation({ ...order, purchaser: '<b>Mallory</b>' }, tickets, event, null);
    const [mail] = await mailTo(order.emailAddress);
    expect(mail!.body.html).toContain('Run &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Walk&quot;');
    expect(mail!.body.html).toContain('Hello &lt;b&gt;Mallory&lt;/b&gt;');
    expect(mail!.body.html).not.toContain('<script>');
  });
});

describe('the mail prices from the order, over HTTP', () => {
  const { keys, relay } = useStripeStandIn();

  const confirmationTo = async (address: string) => {
    const mails = (await mailTo(address)).filter((mail) => mail.subject?.startsWith('Your tickets for'));
    expect(mails).toHaveLength(1);
    return mails[0]!.body.text!;
  };

  it("shows a checkout's tickets at the price held, though the type's price changed before the payment", async () => {
    const bought = await checkedOut(keys, relay, { quantity: 2, price: 12.5 });
    const repriced = await call('PATCH', `/api/v2/events/${bought.eventId}/ticket-types/${bought.typeId}`, {
      token: await adminToken(),
      body: { price: 99 },
    });
    expect(repriced.status, repriced.raw).toBe(200);
    await payAsBrowser(keys, bought.intent);
    await claimedThenIssued(bought.orderId);
    const text = await confirmationTo(bought.email);
    expect(text).toContain('2 × Runner: EUR 25.00');
    expect(text).toContain('Total: EUR 25.00');
    expect(text).not.toContain('EUR 198.00');
  });

  it('shows a comp box-office sale at 0, and a yen sale without decimals', async () => {
    const sell = async (currency: string, price: number, method: string) => {
      const event = await seedEvent({
        published: true,
        currency,
        questions: [],
        ticketTypes: [{ name: 'Runner', price, total: 10 }],
      });
      const buyer = newAddress('buyer');
      const sold = await call('POST', '/api/v2/orders', {
        token: await adminToken(['orders:sell', 'orders:read', 'tickets:read'], 999_411),
        body: {
          eventId: event.id,
          lines: [{ typeId: event.ticketTypes[0]!.id, quantity: 2 }],
          payment: { method },
          buyer: { emailAddress: buyer },
          attendees: [0, 1].map((n) => ({ firstName: `Ada${n}`, lastName: 'Lovelace', email: `ada${n}@example.com` })),
        },
      });
      expect(sold.status, sold.raw).toBe(201);
      return confirmationTo(buyer);
    };
    const comp = await sell('EUR', 12.5, 'comp');
    expect(comp).toContain('2 × Runner: EUR 0.00');
    expect(comp).toContain('Total: EUR 0.00');
    const yen = await sell('JPY', 1500, 'cash');
    expect(yen).toContain('2 × Runner: JPY 3000\n');
    expect(yen).toContain('Total: JPY 3000\n');
  });
});
