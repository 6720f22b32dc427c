import type { ServerResponse } from 'node:http';
import { unrecognizedUrl } from './errors.ts';
import type { Resources } from './resources.ts';

export const AUTHENTICATION_PAGE = /^\/3d_secure_2_test\/([\w]+)(?:\/(complete|fail))?$/;

type Answer = (response: ServerResponse, status: number, body: string) => void;

/**
 * Stripe's 3-D Secure test page (as hooks.stripe.com's in test mode): the buyer's browser opens `next_action`'s
 * URL, and the page's two buttons complete or fail the authentication. No key: the id in the URL is the secret.
 * After the answer the browser goes back to the `return_url` given at confirm (with Stripe's query), if any.
 */
export function authenticationPage(
  resources: Resources,
  { method, path, baseUrl }: { method: string; path: string; baseUrl: string },
  response: ServerResponse,
  answer: Answer,
): void {
  const [, id, outcome] = AUTHENTICATION_PAGE.exec(path)!;
  if (method === 'GET' && !outcome) {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(authenticationHtml(`${baseUrl}/3d_secure_2_test/${id}`));
    return;
  }
  if (method !== 'POST' || !outcome) throw unrecognizedUrl(method, path);
  const { intent, returnUrl } = resources.authenticate(id!, outcome as 'complete' | 'fail');
  if (!returnUrl) {
    answer(response, 200, JSON.stringify({ payment_intent: intent.id, status: intent.status }));
    return;
  }
  const back = new URL(returnUrl);
  back.searchParams.set('payment_intent', intent.id);
  back.searchParams.set('payment_intent_client_secret', intent.client_secret ?? '');
  back.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : 'failed');
  response.writeHead(303, { location: back.href });
  response.end();
}

const authenticationHtml = (action: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>3D Secure 2 Test Page</title></head>
<body><h1>3D Secure 2 Test Page</h1>
<p>This test payment requires authentication (the local Stripe stand-in).</p>
<form method="post" action="${action}/complete"><button id="complete" type="submit">Complete</button></form>
<form method="post" action="${action}/fail"><button id="fail" type="submit">Fail</button></form>
</body></html>
`;
