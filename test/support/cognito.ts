import {
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { createIdentityUser } from '../../bin/local/cognito.ts';

/**
 * Drives cognito-local's hosted UI the way a browser would, without one: the authorize
 * page (GET), its sign-in form (POST), and the redirect back to the API's callback.
 */
export interface HostedUiRedirect {
  /** Where the hosted UI sends the browser: the API's callback URL with `code` and `state`. */
  location: URL;
  code: string;
  state: string;
}

export async function signInAtHostedUi(authUrl: string, username: string, password: string): Promise<HostedUiRedirect> {
  const url = new URL(authUrl);
  const page = await fetch(url);
  if (!page.ok) throw new Error(`authorize page: ${page.status} ${await page.text()}`);
  const form = new URLSearchParams({ username, password });
  for (const field of [
    'client_id',
    'redirect_uri',
    'response_type',
    'code_challenge',
    'code_challenge_method',
    'scope',
    'state',
  ]) {
    form.set(field, url.searchParams.get(field) ?? '');
  }
  const response = await fetch(`${url.origin}/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
  if (response.status !== 302) throw new Error(`sign-in form: ${response.status} ${await response.text()}`);
  const location = new URL(response.headers.get('location')!);
  return { location, code: location.searchParams.get('code')!, state: location.searchParams.get('state')! };
}

/** Whether the customers' pool has a user signing in with this address. */
export async function cognitoHasUser(email: string): Promise<boolean> {
  const client = new CognitoIdentityProviderClient({});
  try {
    await client.send(
      new AdminGetUserCommand({ UserPoolId: process.env.CUSTOMER_COGNITO_USER_POOL_ID!, Username: email }),
    );
    return true;
  } catch (error) {
    if (error instanceof UserNotFoundException) return false;
    throw error;
  } finally {
    client.destroy();
  }
}

/** A Cognito user in the test pool made by global-setup (confirmed, verified email); returns its UUID user name. */
export async function createTestIdentityUser(email: string, password: string): Promise<string> {
  const client = new CognitoIdentityProviderClient({});
  try {
    return await createIdentityUser(client, process.env.COGNITO_USER_POOL_ID!, email, password);
  } finally {
    client.destroy();
  }
}
