import type { FieldProblem } from '../../errors.ts';

/**
 * The service's own password policy (legacy mode; Cognito enforces its own in idp mode).
 * Length over composition rules (NIST SP 800-63B): at least 12 characters, at most 1024
 * so hashing cost stays bounded, and a new password must differ from the old one.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

/** Problems with a proposed password, as field problems at `path`; empty when it is acceptable. */
export function passwordProblems(password: string, path: string, previous?: string): FieldProblem[] {
  const length = [...password.normalize('NFKC')].length;
  if (length < PASSWORD_MIN_LENGTH) return [{ path, message: `Must be at least ${PASSWORD_MIN_LENGTH} characters.` }];
  if (length > PASSWORD_MAX_LENGTH) return [{ path, message: `Must be at most ${PASSWORD_MAX_LENGTH} characters.` }];
  if (previous !== undefined && password === previous)
    return [{ path, message: 'Must differ from the current password.' }];
  return [];
}
