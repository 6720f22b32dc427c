import { claimRequest, completeRequest, releaseRequest, type StoredAnswer } from '../data/idempotent-requests.ts';
import { now } from '../clock.ts';
import { fingerprintOf, type IdempotencyScope } from '../domain/idempotency.ts';
import { InFlight, Unprocessable } from '../errors.ts';
import { logger } from '../logger.ts';

export type { StoredAnswer } from '../data/idempotent-requests.ts';

/** An answer body larger than this is not stored (DynamoDB items hold 400 KB): the key is released instead. */
const MAX_STORED_BODY = 300_000;

/**
 * Runs `act` once per scope (route, caller, key) within 24 h (README "Idempotent retries").
 * Same key, same request: the stored answer, `replayed`. Same key, different request: 422.
 * Same key still in flight: 409 with Retry-After. A failure releases the key (errors are
 * not stored), so the retry runs again. `lockMs`: how long the claim blocks retries (the
 * time the function may still run).
 */
export async function answerOnce(
  scope: IdempotencyScope,
  request: { path: unknown; query: unknown; body: unknown },
  lockMs: number,
  act: () => Promise<StoredAnswer>,
): Promise<{ answer: StoredAnswer; replayed: boolean }> {
  const fingerprint = fingerprintOf(request);
  const claim = await claimRequest(scope, fingerprint, lockMs);
  if (claim.outcome !== 'claimed') {
    if (claim.fingerprint !== fingerprint) {
      throw new Unprocessable(
        'This Idempotency-Key was used for a different request; use a new key for a new request.',
        'idempotency_key_reused',
      );
    }
    if (claim.outcome === 'in-flight') {
      const seconds = Math.max(1, Math.ceil((claim.lockedUntilMs - now().getTime()) / 1000));
      throw new InFlight('A request with this Idempotency-Key is still being processed.', Math.min(seconds, 60));
    }
    return { answer: claim.answer, replayed: true };
  }
  let answer: StoredAnswer;
  try {
    answer = await act();
  } catch (error) {
    await releaseRequest(scope);
    throw error;
  }
  if ((answer.body?.length ?? 0) > MAX_STORED_BODY) {
    logger.warn('idempotent answer too large to store; key released', {
      route: scope.route,
      bytes: answer.body?.length,
    });
    await releaseRequest(scope);
  } else {
    await completeRequest(scope, answer);
  }
  return { answer, replayed: false };
}
