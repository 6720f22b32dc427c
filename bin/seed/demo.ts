import { hashPassword } from '#shared/auth/passwords';
import { createAdministrator } from '#shared/identity/data/administrators';
import { createShippingMethods } from '#shared/selling/data/shipping-methods';
import { PERMISSIONS } from '#shared/auth/permissions';
import { createCustomer, verifyCustomerEmailForSeed } from '#shared/identity/use-cases/create-customer';
import { seedDemoClaims, type DemoClaims } from './claims.ts';
import { seedDemoOrders } from './orders.ts';
import { seedDemoEvents } from './tickets.ts';
import { seedWaivers } from './waivers.ts';

/**
 * Demo data for `npm start`. The logins and ids land in `.local/demo.json` so scripts
 * and people can try the API at once: administrators, events with tickets and waivers,
 * the portal's customers (two verified, one not) with their orders, and a payment processor.
 */
export interface Credentials {
  login: string;
  password: string;
}

export interface DemoData {
  admin: Credentials;
  scanner: Credentials;
  vendor: Credentials;
  customer: Credentials;
  otherCustomer: Credentials;
  /** Created but never verified: its login answers 403 email_not_verified. */
  unverifiedCustomer: Credentials;
  events: { id: number; ticketTypes: number[] }[];
  accessPackageEvent: number | null;
  /** Open tickets of the first event, free to try check-in, transfer and the states route on. */
  tickets: number[];
  /** Ticket ids by claim state. */
  claims: DemoClaims;
  customerTickets: number[];
  customerOrders: number[];
  otherCustomerOrders: number[];
  shippingMethods: number[];
}

const ADMIN = { login: 'admin@demo.test', password: 'demo-admin-password' };
const SCANNER = { login: 'scanner@demo.test', password: 'demo-scanner-password' };
const VENDOR = { login: 'vendor@demo.test', password: 'demo-vendor-password' };
const CUSTOMER = { login: 'casey@demo.test', password: 'demo-customer-password' };
const OTHER_CUSTOMER = { login: 'robin@demo.test', password: 'demo-customer-password-2' };
const UNVERIFIED_CUSTOMER = { login: 'pat@demo.test', password: 'demo-customer-password-3' };

/** The portal's customers, Cognito users of the customers' pool: two verified, one not. */
async function seedCustomers(): Promise<[{ id: number; email: string }, { id: number; email: string }]> {
  const system = { kind: 'system' } as const;
  const [casey, robin] = await Promise.all([
    createCustomer({ email: CUSTOMER.login, password: CUSTOMER.password, name: 'Casey Customer' }, system),
    createCustomer({ email: OTHER_CUSTOMER.login, password: OTHER_CUSTOMER.password, name: 'Robin Other' }, system),
    createCustomer(
      { email: UNVERIFIED_CUSTOMER.login, password: UNVERIFIED_CUSTOMER.password, name: 'Pat Unverified' },
      system,
    ),
  ]);
  await Promise.all([verifyCustomerEmailForSeed(casey.id), verifyCustomerEmailForSeed(robin.id)]);
  return [
    { id: casey.id, email: CUSTOMER.login },
    { id: robin.id, email: OTHER_CUSTOMER.login },
  ];
}

/** Answers the admin's id (who organises the demo's events) and the scanner's (the demo's check-ins are recorded as scanned by them). */
async function seedAdministrators(): Promise<{ adminId: number; scannerId: number }> {
  const people = [
    { ...ADMIN, name: 'Avery Admin', permissions: [...PERMISSIONS], vendorUser: 0 as const },
    {
      ...SCANNER,
      name: 'Sam Scanner',
      permissions: ['tickets:read' as const, 'shipping:read' as const, 'checkin:scan' as const],
      vendorUser: 0 as const,
    },
    { ...VENDOR, name: 'Vic Vendor', permissions: ['tickets:read' as const], vendorUser: 1 as const },
  ];
  const ids: number[] = [];
  for (const { password, ...person } of people) {
    ids.push(
      (await createAdministrator({ ...person, email: person.login, passwordHash: await hashPassword(password) })).id,
    );
  }
  return { adminId: ids[0]!, scannerId: ids[1]! };
}

async function seedShippingMethods(): Promise<number[]> {
  const created = await createShippingMethods([
    {
      name: 'E-ticket',
      description: 'Tickets by email, nothing posted',
      charge: 0,
      twoPlusCharge: 0,
      chargeType: 'per_order',
      hasETickets: true,
      requiresShippingInfo: false,
      allowInternational: true,
      hasBadges: false,
    },
    {
      name: 'Standard post',
      description: 'Printed tickets, 3-5 working days',
      charge: 4.5,
      twoPlusCharge: 0,
      chargeType: 'per_order',
      hasETickets: false,
      requiresShippingInfo: true,
      allowInternational: false,
      hasBadges: false,
    },
    {
      name: 'Race pack courier',
      description: 'Bib, chip and badge by courier',
      charge: 9.95,
      twoPlusCharge: 2.5,
      chargeType: 'per_ticket',
      hasETickets: false,
      requiresShippingInfo: true,
      allowInternational: true,
      hasBadges: true,
    },
  ]);
  return created.map((method) => method.id);
}

export async function seedDemo(): Promise<DemoData> {
  const { adminId, scannerId } = await seedAdministrators();
  const demo = await seedDemoEvents(scannerId, adminId);
  await seedWaivers(demo.events);
  const [casey, robin] = await seedCustomers();
  const orders = await seedDemoOrders(demo.events, [casey, robin]);
  // Four of the open marathon tickets become claims: open, reassigned, claimed by casey, cancelled.
  const claims = await seedDemoClaims(demo.openTickets.slice(-4), casey);
  return {
    admin: ADMIN,
    scanner: SCANNER,
    vendor: VENDOR,
    customer: CUSTOMER,
    otherCustomer: OTHER_CUSTOMER,
    unverifiedCustomer: UNVERIFIED_CUSTOMER,
    events: demo.events.map((event) => ({ id: event.id, ticketTypes: event.ticketTypes.map((type) => type.id) })),
    accessPackageEvent: demo.accessPackageEvent,
    tickets: demo.openTickets.slice(0, -4),
    claims,
    customerTickets: orders[casey.id]!.ticketIds,
    customerOrders: orders[casey.id]!.orderIds,
    otherCustomerOrders: orders[robin.id]!.orderIds,
    shippingMethods: await seedShippingMethods(),
  };
}
