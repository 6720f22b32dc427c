import type { CustomerPrincipal } from '../../auth/tokens.ts';
import { getCustomer } from '../data/customers.ts';
import type { Customer } from '../domain/customer.ts';
import { toCustomerResource, type CustomerResource } from '../domain/customer.ts';
import { Unauthenticated } from '../../errors.ts';

/** A customer by id (one GetItem); undefined when there is none. */
export const findCustomerById = (id: number): Promise<Customer | undefined> => getCustomer(id);

/**
 * The caller's own record. Customer routes never take a customer id from the request:
 * the token's subject is the only one they read. A token whose account is gone is a 401
 * (the token no longer stands for anyone), not a 404.
 */
export async function requireCaller(caller: CustomerPrincipal): Promise<Customer> {
  const customer = await getCustomer(caller.id);
  if (!customer) throw new Unauthenticated('The account of this token no longer exists.');
  return customer;
}

/** `GET /my-account`. */
export const currentCustomer = async (caller: CustomerPrincipal): Promise<CustomerResource> =>
  toCustomerResource(await requireCaller(caller));
