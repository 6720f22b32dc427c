import { createHash } from 'node:crypto';

/** Reset tokens are stored only as this hash: a leaked table does not leak usable tokens. */
export const hashResetToken = (token: string): string => createHash('sha256').update(token).digest('hex');
