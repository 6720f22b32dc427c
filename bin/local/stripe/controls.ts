import type Stripe from 'stripe';
import { invalidRequest, unrecognizedUrl } from './errors.ts';
import type { FaultInput, Faults } from './faults.ts';
import type { Resources } from './resources.ts';
import type { DeliverySwitches, Webhooks } from './webhooks.ts';

type ControlInput = DeliverySwitches & FaultInput & { url?: string; status?: string };

/**
 * The test controls (`/_stand-in/…`, JSON, the secret key): the webhook switches, the events and deliveries so far,
 * resend, injected faults, settle, release; a payment's disputes (`GET disputes?payment_intent=`) and a dispute's
 * next status (`POST disputes/{id}` `{status}`). An action answers undefined: `{ok: true}`.
 */
export function testControls({
  webhooks,
  resources,
  faults,
}: {
  webhooks: Webhooks;
  resources: Resources;
  faults: Faults;
}) {
  /** Every refund due to fail has failed, then every delivery under way has its answer. */
  const settle = () => resources.followUps.settle().then(() => webhooks.settle());

  return async (method: string, path: string, url: URL, body: string): Promise<unknown> => {
    const input = body ? (JSON.parse(body) as ControlInput) : {};
    const intent = url.searchParams.get('payment_intent');
    const switches = /^\/_stand-in\/payment_intents\/([^/]+)\/webhooks$/.exec(path);
    const resend = /^\/_stand-in\/events\/([^/]+)\/resend$/.exec(path);
    const dispute = /^\/_stand-in\/disputes\/([^/]+)$/.exec(path);
    const { followUps } = resources;
    if (method === 'POST' && path === '/_stand-in/webhooks') return webhooks.configure(input);
    if (method === 'POST' && switches) {
      resources.paymentIntent(switches[1]!);
      return webhooks.configureIntent(switches[1]!, input);
    }
    if (method === 'GET' && path === '/_stand-in/events')
      return { data: intent ? webhooks.events.filter((e) => paymentIntentOf(e) === intent) : webhooks.events };
    if (method === 'GET' && path === '/_stand-in/deliveries')
      return { data: intent ? webhooks.deliveries.filter((d) => d.paymentIntent === intent) : webhooks.deliveries };
    if (method === 'POST' && resend) {
      if (!webhooks.resend(resend[1]!, input.url)) throw invalidRequest(`No such event: '${resend[1]}'`, {}, 404);
      return;
    }
    if (method === 'POST' && path === '/_stand-in/faults') return faults.set(input);
    if (method === 'GET' && path === '/_stand-in/disputes') return { data: followUps.disputesOf(intent ?? '') };
    if (method === 'POST' && dispute) return followUps.moveDispute(dispute[1]!, String(input.status ?? ''));
    if (method === 'POST' && path === '/_stand-in/settle') return settle();
    if (method === 'POST' && path === '/_stand-in/release') return webhooks.release(intent ?? undefined);
    throw unrecognizedUrl(method, path);
  };
}

function paymentIntentOf(event: Stripe.EventBase): unknown {
  const object = event.data.object as { id: string; object: string; payment_intent?: unknown };
  return object.object === 'payment_intent' ? object.id : object.payment_intent;
}
