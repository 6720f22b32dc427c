import { config, type Config } from '../../config.ts';
import { Forbidden } from '../../errors.ts';

type Mode = Config['SITE_AUTH_METHOD'];

const OTHER: Record<Mode, string> = {
  idp: 'This site signs in with its own passwords (SITE_AUTH_METHOD=legacy): use the /auth/legacy routes.',
  legacy: 'This site signs in through the identity provider (SITE_AUTH_METHOD=idp): use POST /api/v2/auth/login.',
};

/**
 * Each mode's routes answer 403 while the other mode is active (spec, Authentication 2).
 * `extensions` adds members such as the spec's `error: "vendor_user_restricted"`.
 */
export function requireAuthMode(mode: Mode, extensions: Record<string, unknown> = {}): void {
  if (config().SITE_AUTH_METHOD !== mode) throw new Forbidden(OTHER[mode], extensions);
}
