import { invalidRequest, StripeFailure } from './errors.ts';
import type { Form } from './form.ts';

/**
 * An injected failure (`POST /_stand-in/faults`): `status` for the next `times` calls; `whileExecuting`: the
 * request began executing, then failed, so the answer is kept under its idempotency key as Stripe keeps it.
 */
export interface Fault {
  status: number;
  times: number;
  whileExecuting: boolean;
}

export type FaultInput = Partial<Fault> & { route?: string; paymentIntent?: string; idempotencyKey?: string };

const faultKey = (route: string, scope?: unknown) => (typeof scope === 'string' ? `${route} ${scope}` : route);

/**
 * Injected failures (`POST /_stand-in/faults` `{route: 'POST /v1/refunds', status: 500, times: 2}`): the next
 * `times` calls of the route answer `status` as Stripe's API failing before it acts: nothing done, nothing kept
 * under the idempotency key (a retry with the key acts). `times: 0` clears. With `paymentIntent`, only the calls
 * naming that intent (`payment_intent`); with `idempotencyKey`, only the calls sent with that key: a test fails its
 * own payment's or order's calls, not another's running beside it.
 */
export class Faults {
  private readonly faults = new Map<string, Fault>();

  set(input: FaultInput): void {
    const { route, status = 500, times = 1, paymentIntent, idempotencyKey, whileExecuting = false } = input;
    if (!route) throw invalidRequest('A fault names its route (`POST /v1/refunds`).', { param: 'route' });
    const scope = idempotencyKey === undefined ? paymentIntent : `key ${idempotencyKey}`;
    this.faults.set(faultKey(route, scope), { status, times, whileExecuting });
  }

  /** The fault set for this call, if any is left: one for its intent or its key first, then the route's. */
  forCall(route: string, form: Form, idempotencyKey: string | null): Fault | undefined {
    const named = [faultKey(route, form.payment_intent), faultKey(route, `key ${idempotencyKey}`)]
      .map((key) => this.faults.get(key))
      .find((candidate) => candidate?.times);
    const fault = named ?? this.faults.get(route);
    return fault && fault.times > 0 ? fault : undefined;
  }

  /** The failure a call answers, one of the fault's `times` used. */
  injected(fault: Fault): StripeFailure {
    fault.times--;
    return new StripeFailure(fault.status, { type: 'api_error', message: 'An injected failure of the stand-in.' });
  }
}
