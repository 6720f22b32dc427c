import { epochSeconds } from '../../clock.ts';
import { readSessionVersion, type SessionOwner } from '../data/session-versions.ts';
import { Unauthenticated } from '../../errors.ts';
import type { Principal } from '../../auth/tokens.ts';
import { keptPerContainer } from '../../container-state.ts';

/**
 * How long a container trusts a session version it has read. A token ended elsewhere
 * (logout, password change or reset handled by another container) can still be used for
 * at most this long on a container that read the version just before; the container
 * that ends a session forgets its entry at once. The cache makes the check free on the
 * hot path: one GetItem per account per container per window.
 */
export const SESSION_CHECK_SECONDS = 30;
const CACHE_SIZE = 1000;

const versions = new Map<string, { version: number; readAt: number }>();
const cacheKey = (owner: SessionOwner, id: number) => `${owner}:${id}`;

async function currentVersion(owner: SessionOwner, id: number): Promise<number> {
  const key = cacheKey(owner, id);
  const t = epochSeconds();
  const hit = versions.get(key);
  // `t < hit.readAt` too: a clock moved back (tests) must not keep an entry forever.
  if (hit && t - hit.readAt < SESSION_CHECK_SECONDS && t >= hit.readAt) return hit.version;
  const version = await readSessionVersion(owner, id);
  versions.delete(key);
  // Oldest first out: Map keeps insertion order.
  if (versions.size >= CACHE_SIZE) versions.delete(versions.keys().next().value!);
  versions.set(key, { version, readAt: t });
  return version;
}

/** Refuses a token issued before its account's sessions were ended (401). */
export async function assertSessionCurrent(principal: Principal): Promise<void> {
  if ((await currentVersion(principal.kind, principal.id)) !== (principal.sessionVersion ?? 0)) {
    throw new Unauthenticated(
      'This session has ended (signed out everywhere, or the password changed): sign in again.',
    );
  }
}

/** Called where this container ends sessions: its own next request sees the new version. */
export function forgetSessionVersion(owner: SessionOwner, id: number): void {
  versions.delete(cacheKey(owner, id));
}

// A new container has checked no session yet.
keptPerContainer(() => versions.clear());
