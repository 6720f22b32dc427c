import { ConcurrentUpdate } from '../errors.ts';
import { backoff } from './client.ts';

/**
 * Tries of one read-decide-write. A try is lost only to another writer of the same item between its read and its
 * conditional write, so a few are plenty; more would hold a request (and its function's time) in a race it keeps
 * losing, when the client can as well send it again.
 */
export const READ_DECIDE_WRITE_TRIES = 5;

/**
 * What the caller decided on what it read: an answer with nothing to write (the item is already as wanted, or the
 * request is refused: throw), or a conditional write (true when it won, false when its condition failed because the
 * item moved since the read) and the answer once it is written.
 */
export type Decision<T> = { answer: T } | { write: () => Promise<boolean>; answer: T };

export interface ReadDecideWrite<R, T> {
  /** What is written, as the 409 names it when every try lost (`Order 12`). */
  subject: string;
  /** A fresh, strongly consistent read; `attempt` is 0 first, so a caller may hand in what it read already. */
  read: (attempt: number) => Promise<R>;
  decide: (read: R, attempt: number) => Decision<T> | Promise<Decision<T>>;
}

/**
 * The one read-decide-write loop, and its one retry policy: read, decide, write conditionally; on a lost race wait
 * (full jitter, so the racers spread out) and read again, READ_DECIDE_WRITE_TRIES times at most, then 409
 * `concurrent_update` with nothing written by this request. Collisions inside one transaction are transactWrite's
 * own (client.ts); a decision's refusal (a thrown error) ends the loop as it is.
 */
export async function readDecideWrite<R, T>({ subject, read, decide }: ReadDecideWrite<R, T>): Promise<T> {
  for (let attempt = 0; attempt < READ_DECIDE_WRITE_TRIES; attempt++) {
    if (attempt > 0) await backoff(attempt);
    const decision = await decide(await read(attempt), attempt);
    if (!('write' in decision) || (await decision.write())) return decision.answer;
  }
  throw new ConcurrentUpdate(`${subject} kept changing while this request wrote it; retry the request.`);
}
