import { hashPassword } from '#shared/auth/passwords';
import { createAdministrator } from '#shared/data/administrators';
import { createShippingMethods } from '#shared/data/shipping-methods';
import { PERMISSIONS } from '#shared/routes';
import { seedDemoEvents } from './tickets.ts';
import { seedWaivers } from './waivers.ts';

/**
 * Demo data for `npm start`. The logins and ids land in `.local/demo.json` so scripts
 * and people can try the API at once. Later issues add events, tickets and customers;
 * until then those parts of the manifest are empty.
 */
export interface Credentials {
  login: string;
  password: string;
}

export interface DemoData {
  admin: Credentials;
  scanner: Credentials;
  vendor: Credentials;
  customer: Credentials | null;
  otherCustomer: Credentials | null;
  events: { id: number; ticketTypes: number[] }[];
  accessPackageEvent: number | null;
  tickets: number[];
  customerTickets: number[];
  customerOrders: number[];
  otherCustomerOrders: number[];
  shippingMethods: number[];
}

const ADMIN = { login: 'admin@demo.test', password: 'demo-admin-password' };
const SCANNER = { login: 'scanner@demo.test', password: 'demo-scanner-password' };
const VENDOR = { login: 'vendor@demo.test', password: 'demo-vendor-password' };

/** Answers the scanner's id (the demo's check-ins are recorded as scanned by them). */
async function seedAdministrators(): Promise<number> {
  const people = [
    { ...ADMIN, name: 'Avery Admin', permissions: [...PERMISSIONS], vendorUser: 0 as const },
    { ...SCANNER, name: 'Sam Scanner', permissions: ['tickets:read' as const, 'shipping:read' as const, 'checkin:scan' as const], vendorUser: 0 as const },
    { ...VENDOR, name: 'Vic Vendor', permissions: ['tickets:read' as const], vendorUser: 1 as const },
  ];
  const ids: number[] = [];
  for (const { password, ...person } of people) {
    ids.push((await createAdministrator({ ...person, email: person.login, passwordHash: await hashPassword(password) })).id);
  }
  return ids[1]!;
}

async function seedShippingMethods(): Promise<number[]> {
  const created = await createShippingMethods([
    { name: 'E-ticket', description: 'Tickets by email, nothing posted', charge: 0, twoPlusCharge: 0, chargeType: 'per_order', hasETickets: true, requiresShippingInfo: false, allowInternational: true, hasBadges: false },
    { name: 'Standard post', description: 'Printed tickets, 3-5 working days', charge: 4.5, twoPlusCharge: 0, chargeType: 'per_order', hasETickets: false, requiresShippingInfo: true, allowInternational: false, hasBadges: false },
    { name: 'Race pack courier', description: 'Bib, chip and badge by courier', charge: 9.95, twoPlusCharge: 2.5, chargeType: 'per_ticket', hasETickets: false, requiresShippingInfo: true, allowInternational: true, hasBadges: true },
  ]);
  return created.map((method) => method.id);
}

export async function seedDemo(): Promise<DemoData> {
  const scannerId = await seedAdministrators();
  const demo = await seedDemoEvents(scannerId);
  await seedWaivers(demo.events);
  return {
    admin: ADMIN,
    scanner: SCANNER,
    vendor: VENDOR,
    customer: null,
    otherCustomer: null,
    events: demo.events.map((event) => ({ id: event.id, ticketTypes: event.ticketTypes.map((type) => type.id) })),
    accessPackageEvent: demo.accessPackageEvent,
    tickets: demo.openTickets,
    customerTickets: [],
    customerOrders: [],
    otherCustomerOrders: [],
    shippingMethods: await seedShippingMethods(),
  };
}
