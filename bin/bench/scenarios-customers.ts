import { issueToken } from '#shared/identity/services/token-issuer';
import { epochSeconds } from '#shared/clock';
import { configureCustomerCognito } from '../local/cognito.ts';
import type { LocalServices } from '../local/services.ts';
import type { BenchRequest, Scenario } from './scenarios.ts';

/**
 * The customer-account routes' scenarios, in the shape of `scenarios` (scenarios.ts); the
 * login's floor holds its Cognito InitiateAuth too (replay.ts records that client as well).
 *
 * bench.ts puts `customerBenchEnv` into the environment before any handler loads;
 * latency.ts merges these with the others. Requests carry the customer's own `token`.
 */

/** The customers' pool in cognito-local, and where verification links point. */
export async function customerBenchEnv(services: LocalServices): Promise<Record<string, string>> {
  const cognito = await configureCustomerCognito({
    endpoint: services.endpoints.cognito,
    region: services.env.AWS_REGION!,
    credentials: { accessKeyId: services.env.AWS_ACCESS_KEY_ID!, secretAccessKey: services.env.AWS_SECRET_ACCESS_KEY! },
  });
  cognito.close();
  return { ...cognito.env, PORTAL_URL: 'https://my.ticketing.bench' };
}

const PASSWORD = 'bench-customer-password-1';
/** login-guard.ts PAIR_RULE's attempts: each bench customer signs in at most this often per window from one address. */
const LOGINS_PER_CUSTOMER = 5;

interface BenchCustomer {
  id: number;
  email: string;
  sub: string;
  token: string;
}

/** Verified customers made through the use case (Cognito user, record, token), as the seed does. */
async function makeCustomers(count: number): Promise<BenchCustomer[]> {
  // Loaded here: they read the customers' pool settings when they load, which customerBenchEnv provides.
  const { createCustomer, verifyCustomerEmailForSeed } = await import('#shared/identity/use-cases/create-customer');
  const { findCustomerById } = await import('#shared/identity/use-cases/account');
  const made: BenchCustomer[] = [];
  for (let n = 0; n < count; n++) {
    const email = `bench-customer-${Date.now()}-${n}@ticketing.bench`;
    const { id } = await createCustomer({ email, password: PASSWORD, name: `Bench Customer ${n}` }, { kind: 'system' });
    await verifyCustomerEmailForSeed(id);
    const { cognitoSub } = (await findCustomerById(id))!;
    made.push({
      id,
      email,
      sub: cognitoSub,
      token: await issueToken({ kind: 'customer', id, email, authTime: epochSeconds() }),
    });
  }
  return made;
}

export const customerScenarios: Record<string, Scenario> = {
  // The login guard around Cognito InitiateAuth and the record by sub. Each customer signs
  // in at most LOGINS_PER_CUSTOMER times, so no limit answers.
  'my-account/login': async (_fixture, runs) => {
    const customers = await makeCustomers(Math.ceil(runs / LOGINS_PER_CUSTOMER));
    return {
      request: (i): BenchRequest => {
        const { email } = customers[Math.floor(i / LOGINS_PER_CUSTOMER)]!;
        return { method: 'PUT', url: '/my-account', body: { login: email, password: PASSWORD }, anonymous: true };
      },
    };
  },

  'my-account/get': async () => {
    const [customer] = await makeCustomers(1);
    return { request: (): BenchRequest => ({ method: 'GET', url: '/my-account', token: customer!.token }) };
  },

  // A plain-field PATCH.
  'my-account/update': async () => {
    const [customer] = await makeCustomers(1);
    return {
      request: (i): BenchRequest => ({
        method: 'PATCH',
        url: '/my-account',
        body: { accountNumber: `ACC-${i}` },
        token: customer!.token,
      }),
    };
  },
};
