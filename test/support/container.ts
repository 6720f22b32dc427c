import { startNewContainer } from '#shared/container-state';

/**
 * As a new Lambda container starts: the environment parsed again, SDK clients rebuilt,
 * secrets fetched again, no session check remembered. For tests that change the
 * environment or a secret between cases.
 */
export const newContainer = (): void => startNewContainer();
