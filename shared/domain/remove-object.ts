import { logger } from '../http/logger.ts';
import { deleteObject } from '../services/photos.ts';

/** Deletes a bucket object when nothing may fail because of it: a failure is logged, not thrown. */
export async function removeObjectQuietly(key: string, why: string): Promise<void> {
  try {
    await deleteObject(key);
  } catch (error) {
    logger.warn('could not delete a bucket object; it is left behind', { key, why, error: error as Error });
  }
}
