import Stripe from 'stripe';
import { eventObject } from './objects.ts';

/**
 * The stand-in's events and their deliveries. Each state change becomes an Event (`evt_…`, the object as it
 * was then), posted to the webhook URL as Stripe posts it: JSON, `Stripe-Signature: t=…,v1=…` made by the
 * SDK's own test-header helper with the endpoint's `whsec_` secret. Stripe retries failed deliveries for days;
 * this stand-in sends each once (plus the switches' repeats) and `resend` sends one again.
 *
 * Switches, for the instance or one PaymentIntent (the intent's win): `twice` (each delivery sent a second
 * time, same event id), `outOfOrder` (an event waits for the intent's next one and is sent after it),
 * `delayMs` (held that long, or until `release`), `staleBySeconds` (signed with a timestamp that far in the
 * past), `url` (where to post; none: recorded, not sent).
 */
export interface DeliverySwitches {
  url?: string | null;
  twice?: boolean;
  outOfOrder?: boolean;
  delayMs?: number;
  staleBySeconds?: number;
}

export interface Delivery {
  eventId: string;
  type: string;
  paymentIntent: string;
  url: string | null;
  /** `sent` with the receiver's status; `failed` with the reason; `held` until it is due; `no-endpoint`: no URL to post to. */
  state: 'held' | 'sending' | 'sent' | 'failed' | 'no-endpoint';
  status?: number;
  error?: string;
  signedAt?: number;
}

const API_VERSION = Stripe.API_VERSION;

/** The API request that caused an event (`request` on it); both null for the buyer's answer on a 3-D Secure page. */
export interface EventRequest {
  id: string | null;
  idempotencyKey: string | null;
}

type StripeEvent = Stripe.EventBase;

export class Webhooks {
  readonly events: StripeEvent[] = [];
  readonly deliveries: Delivery[] = [];
  private defaults: DeliverySwitches = {};
  private readonly perIntent = new Map<string, DeliverySwitches>();
  /** Per intent, the event an `outOfOrder` intent holds until its next one. */
  private readonly waiting = new Map<string, { event: StripeEvent; release: () => void }>();
  private readonly held = new Set<{ paymentIntent: string; timer: NodeJS.Timeout; send: () => void }>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly signer = new Stripe('sk_test_signer_only').webhooks;

  constructor(
    private readonly secret: string,
    defaults: DeliverySwitches = {},
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.defaults = defaults;
  }

  configure(switches: DeliverySwitches): void {
    this.defaults = { ...this.defaults, ...switches };
  }

  configureIntent(paymentIntent: string, switches: DeliverySwitches): void {
    this.perIntent.set(paymentIntent, { ...this.perIntent.get(paymentIntent), ...switches });
  }

  private switches(paymentIntent: string): DeliverySwitches {
    return { ...this.defaults, ...this.perIntent.get(paymentIntent) };
  }

  /** A state change: the event (with the object as it is now) and its delivery by the intent's switches. */
  emit(
    type: Stripe.Event.Type,
    object: { id: string; object: string },
    paymentIntent: string,
    request: EventRequest,
  ): void {
    const event = eventObject(type, object, request, { apiVersion: API_VERSION, created: this.now() });
    this.events.push(event);
    const switches = this.switches(paymentIntent);
    const dispatch = () => this.schedule(event, paymentIntent, switches);
    if (!switches.outOfOrder) {
      dispatch();
      return;
    }
    const before = this.waiting.get(paymentIntent);
    if (before) {
      // The newer one first, then the one that waited: the receiver sees them out of order.
      this.waiting.delete(paymentIntent);
      dispatch();
      before.release();
    } else {
      this.waiting.set(paymentIntent, { event, release: dispatch });
    }
  }

  private schedule(event: StripeEvent, paymentIntent: string, switches: DeliverySwitches): void {
    const records = Array.from({ length: switches.twice ? 2 : 1 }, () =>
      this.record(event, paymentIntent, switches.delayMs ? 'held' : 'sending'),
    );
    const send = () => {
      for (const record of records) this.track(this.deliver(record, event, switches));
    };
    if (!switches.delayMs) {
      send();
      return;
    }
    const entry = {
      paymentIntent,
      send,
      timer: setTimeout(() => {
        this.held.delete(entry);
        send();
      }, switches.delayMs),
    };
    this.held.add(entry);
  }

  private record(event: StripeEvent, paymentIntent: string, state: Delivery['state']): Delivery {
    const record: Delivery = { eventId: event.id, type: event.type as string, paymentIntent, url: null, state };
    this.deliveries.push(record);
    return record;
  }

  private track(sending: Promise<void>): void {
    this.inFlight.add(sending);
    void sending.finally(() => this.inFlight.delete(sending));
  }

  private async deliver(record: Delivery, event: StripeEvent, switches: DeliverySwitches): Promise<void> {
    record.url = switches.url ?? null;
    if (!record.url) {
      record.state = 'no-endpoint';
      return;
    }
    record.state = 'sending';
    const payload = JSON.stringify(event, null, 2);
    const signedAt = Math.floor(Date.now() / 1000) - (switches.staleBySeconds ?? 0);
    record.signedAt = signedAt;
    try {
      const answer = await fetch(record.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': this.signer.generateTestHeaderString({
            payload,
            secret: this.secret,
            timestamp: signedAt,
          }),
        },
        body: payload,
      });
      await answer.arrayBuffer();
      Object.assign(record, { state: 'sent', status: answer.status });
    } catch (error) {
      Object.assign(record, { state: 'failed', error: (error as Error).message });
    }
  }

  /** Sends an event again (as `stripe events resend` does), to its intent's URL or another. */
  resend(eventId: string, url?: string): boolean {
    const event = this.events.find((e) => e.id === eventId);
    if (!event) return false;
    const paymentIntent = this.deliveries.find((d) => d.eventId === eventId)?.paymentIntent ?? '';
    const switches = this.switches(paymentIntent);
    const record = this.record(event, paymentIntent, 'sending');
    this.track(this.deliver(record, event, { ...switches, ...(url ? { url } : {}) }));
    return true;
  }

  /** Waits until every delivery under way has its answer (held ones stay held). */
  async settle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Sends what is held (late deliveries, an out-of-order event still waiting for its successor) now, then settles;
   * with `paymentIntent`, only that intent's (so one test's release leaves what another holds).
   */
  async release(paymentIntent?: string): Promise<void> {
    const ours = (intent: string) => paymentIntent === undefined || intent === paymentIntent;
    for (const [intent, { release }] of this.waiting)
      if (ours(intent)) {
        this.waiting.delete(intent);
        release();
      }
    for (const entry of this.held)
      if (ours(entry.paymentIntent)) {
        this.held.delete(entry);
        clearTimeout(entry.timer);
        entry.send();
      }
    await this.settle();
  }

  close(): void {
    for (const entry of this.held) clearTimeout(entry.timer);
    this.held.clear();
  }
}
