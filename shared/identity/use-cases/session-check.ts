import { epochSeconds } from '../../clock.ts';
import { readSessionVersion, type SessionOwner } from '../data/session-versions.ts';
import { Unauthenticated } from '../../errors.ts';
import type { Principal } from '../../auth/tokens.ts';
import { keptPerContainer } from '../../container-state.ts';

/**
 * How long a container trusts a session version it has read. A token ended elsewhere
 * (logout, password change or reset handled by another container) can still be used for
 * at most this long on a container that read the version just before; the container
 * that ends a session knows it at once. The cache makes the check free on the hot path:
 * one GetItem per account per container per window.
 *
 * A token younger than this window is trusted without a read on a container that has not
 * read its account's version: its session can only have ended after it was issued, so it
 * is refused, as by the cache, at most this long after the end. In an on-sale every buyer
 * is new to the container that answers them; this spares each first request a read.
 */
export const SESSION_CHECK_SECONDS = 30;
const CACHE_SIZE = 1000;

const versions = new Map<string, { version: number; readAt: number }>();
/** The accounts whose sessions this container ended: always read, however young the token. */
const endedHere = new Set<string>();
const cacheKey = (owner: SessionOwner, id: number) => `${owner}:${id}`;

/** Oldest first out: a Map or Set keeps insertion order. */
function bounded<T>(entries: Map<string, T> | Set<string>): void {
  if (entries.size >= CACHE_SIZE) entries.delete(entries.keys().next().value!);
}

/** Issued within the window, by this clock (`t < issuedAt`: a clock moved back trusts nothing). */
const issuedWithinWindow = (issuedAt: number | undefined, t: number) =>
  issuedAt !== undefined && t >= issuedAt && t - issuedAt < SESSION_CHECK_SECONDS;

/** The account's version as this container knows it; undefined where a token this young needs no read. */
async function currentVersion(principal: Principal): Promise<number | undefined> {
  const key = cacheKey(principal.kind, principal.id);
  const t = epochSeconds();
  const hit = versions.get(key);
  // `t < hit.readAt` too: a clock moved back (tests) must not keep an entry forever.
  if (hit && t - hit.readAt < SESSION_CHECK_SECONDS && t >= hit.readAt) return hit.version;
  if (!endedHere.has(key) && issuedWithinWindow(principal.issuedAt, t)) return undefined;
  const version = await readSessionVersion(principal.kind, principal.id);
  versions.delete(key);
  bounded(versions);
  versions.set(key, { version, readAt: t });
  return version;
}

/** Refuses a token issued before its account's sessions were ended (401). */
export async function assertSessionCurrent(principal: Principal): Promise<void> {
  const version = await currentVersion(principal);
  if (version !== undefined && version !== (principal.sessionVersion ?? 0)) {
    throw new Unauthenticated(
      'This session has ended (signed out everywhere, or the password changed): sign in again.',
    );
  }
}

/** Called where this container ends sessions: its own next request reads the new version, however young the token. */
export function forgetSessionVersion(owner: SessionOwner, id: number): void {
  const key = cacheKey(owner, id);
  versions.delete(key);
  endedHere.delete(key);
  bounded(endedHere);
  endedHere.add(key);
}

// A new container has checked no session yet.
keptPerContainer(() => {
  versions.clear();
  endedHere.clear();
});
