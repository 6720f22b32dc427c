import { vi } from 'vitest';
import { putPaymentProcessor } from '#shared/selling/data/payment-processors';
import { routes } from '#shared/routes';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { PASSWORD, signedInCustomer } from '../support/customers.ts';
import { fuzzAdministrator, fuzzFile } from '../support/fuzz-world.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so the before/after comparison sees only its own requests.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-fuzz-my-account-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

/** Failed password attempts are counted on purpose (README "Throttled logins"), and the first makes the stage's log-hashing key (shared/identity/data/log-key.ts); portal mail is limited per account. */
const THROTTLE = /^(RATE#|LOG_KEY\|)/;

fuzzFile({
  title: 'customer account',
  tableName: table.name,
  previousTableName: table.previous,
  rows: routes.filter((row) => row.path.startsWith('/my-account')),
  async seed() {
    const admin = await fuzzAdministrator('my-account');
    const customer = await signedInCustomer();
    // The second prices with a booking fee and taxes on it and on shipping, so the fuzz's holds run the pricing.
    const vat = { name: 'VAT', rate: 21, inclusive: false };
    const events = [
      await seedEvent(),
      await seedEvent({ bookingFee: { perTicket: 0.5, percent: 2.5 }, feeTax: vat, shippingTax: vat }),
    ];
    const order = await placeOrder(events[0]!, customer.id, [
      events[0]!.ticketTypes[0]!.id,
      events[0]!.ticketTypes[1]!.id,
    ]);
    const ticketIds = order.ticketIds;
    await putPaymentProcessor({
      provider: 'stripe',
      publishableKey: 'pk_test_fuzz',
      currency: 'GBP',
      mode: 'test',
      merchantName: 'Fuzz Events Ltd',
    });
    return {
      admin,
      customer: { kind: 'customer' as const, id: customer.id, login: customer.email },
      known: {
        login: [customer.email],
        // The second meets the customers' pool policy, so the fuzz's sign-ups can succeed too.
        password: [PASSWORD, 'Fuzz-Sign-up-42'],
        email: [customer.email],
        emailAddress: [customer.email],
        event: events.map((event) => String(event.id)),
        ticketType: events.map((event) => String(event.ticketTypes[0]!.id)),
      },
      pathKnown: (_row, parameter) => (parameter === 'eventId' ? events.map((event) => event.id) : ticketIds),
    };
  },
  meantWrites: [
    {
      route: 'PUT /my-account',
      key: THROTTLE,
      reason: 'a failed login counts against the account and the client address',
    },
    {
      route: 'PATCH /my-account',
      key: THROTTLE,
      reason: 'asking for an address another account holds counts against the customer and the client network',
    },
    { route: 'PUT /my-account/email', key: THROTTLE, reason: 'mail to the account is limited, refusals included' },
    {
      route: 'POST /my-account/sign-up',
      key: THROTTLE,
      reason: 'a sign-up refused by the per-address limit has counted against the client network',
    },
    {
      route: 'POST /my-account/reservations',
      key: THROTTLE,
      reason: 'a reservation attempt counts against the customer and the client network, refusals included',
    },
  ],
});
