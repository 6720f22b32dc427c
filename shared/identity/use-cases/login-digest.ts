import { createHmac } from 'node:crypto';
import { logKey } from '../data/log-key.ts';

/**
 * What the logs say of a submitted login: a keyed hash (HMAC-SHA256 with the stage's log
 * key, first 16 hex digits), never the login itself: people type passwords into the login
 * field. The same login gives the same digest, so an attack on one account still reads as
 * one in the logs.
 */
export async function loginDigest(login: string): Promise<string> {
  return `hmac:${createHmac('sha256', await logKey())
    .update(login)
    .digest('hex')
    .slice(0, 16)}`;
}
