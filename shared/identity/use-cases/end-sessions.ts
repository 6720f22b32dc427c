import { forgetSessionVersion } from './session-check.ts';
import type { Principal } from '../../auth/tokens.ts';
import { raiseSessionVersion } from '../data/session-versions.ts';

/**
 * Logout everywhere: raises the caller's session version, so every token of the account
 * (this one, other devices', their refreshes) is refused: at once on this container,
 * within SESSION_CHECK_SECONDS on the others.
 */
export async function endAllSessions(caller: Principal): Promise<void> {
  await raiseSessionVersion(caller.kind, caller.id);
  forgetSessionVersion(caller.kind, caller.id);
}
