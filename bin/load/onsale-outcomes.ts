import type { Recorded } from './onsale-http.ts';

/** What the on-sale rush (onsale-core.ts) answers: each buyer's outcome, their purchases and the run's figures. */
export type Outcome =
  | 'paid'
  | 'abandoned'
  | 'declined_released'
  | 'paid_after_release'
  | 'sold_out'
  | 'gave_up_rate_limited'
  | 'network_capped'
  | 'lapsed_before_checkout'
  | 'error';

/** What a buyer's checkout and payment left, for the checks. */
export interface Purchase {
  buyer: number;
  reservationId: number;
  orderId: string;
  intentId: string;
  quantity: number;
  typeId: number;
  outcome: Outcome;
  /** A retried checkout (same key) answered another order or intent. */
  replayMismatch?: string;
}

export interface RushResult {
  elapsedMs: number;
  /** Until the last buyer's first reservation was answered: the rush itself. */
  rushMs: number;
  api: (Recorded & { sentAt: number; first: boolean })[];
  /** The stand-in's confirm answers (a declined card is its 402, not the API's). */
  confirms: { status: number; card: string }[];
  purchases: Purchase[];
  outcomes: Record<Outcome, number>;
  retriedAfter429: number;
  soldOut: boolean;
}
