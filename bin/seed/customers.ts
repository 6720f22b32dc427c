import { insertCustomer } from '#shared/identity/data/customers';
import { newCustomerRecord } from '#shared/identity/domain/customer';

/**
 * A customer account written as the seeds and the load runs need one: verified already (no token to spend),
 * without a Cognito user (`cognitoSub` and `cognitoUsername` are `<source>-<id>`: nobody signs in with a password;
 * the callers sign their customers in with the service's own tokens, or need none). The item is the API's own:
 * the data layer's `insertCustomer` transaction, so a seeded account reads, lists and orders as a signed-up one.
 */
export async function insertSeededCustomer(
  customer: { id: number; source: string; emailAddress: string; name: string },
  stamp: string,
): Promise<void> {
  const { id, source, emailAddress, name } = customer;
  const link = `${source}-${id}`;
  await insertCustomer(
    newCustomerRecord({ id, cognitoSub: link, cognitoUsername: link, emailAddress, name, emailVerified: true }, stamp),
    null,
  );
}
