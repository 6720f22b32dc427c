import { randomBytes } from 'node:crypto';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import * as z from '../../schema.ts';
import { requireSection } from '../../config.ts';
import { logger } from '../../logger.ts';
import { answeringOutages, clientOptions } from '../../aws-clients.ts';

/**
 * The photo bucket: attendee profile photos and waiver signatures. The one module that
 * holds an S3 client, so only the functions of rows with `uses.photos` bundle it.
 *
 * In AWS the bucket is private and read through CloudFront (`PHOTO_BASE_URL` is the
 * distribution); locally s3rver serves objects at `http://127.0.0.1:PORT/BUCKET/KEY`,
 * and needs path-style addressing and checksums only when required (else streamed
 * uploads are stored with their chunk framing), switched on by PHOTO_FORCE_PATH_STYLE.
 * The endpoint comes from the SDK's own AWS_ENDPOINT_URL_S3.
 */
const settings = requireSection(
  'the photo bucket',
  z.object({
    PHOTO_BUCKET: z.string().check(z.minLength(1)),
    /** Public base URL of the bucket's objects, without a trailing slash. */
    PHOTO_BASE_URL: z.pipe(
      z.url(),
      z.transform((url) => url.replace(/\/+$/, '')),
    ),
    PHOTO_FORCE_PATH_STYLE: z._default(z.enum(['true', 'false']), 'false'),
  }),
);
const localStyle = settings.PHOTO_FORCE_PATH_STYLE === 'true';

/**
 * Retries and timeouts from shared/aws-clients.ts, so a stalled call is retried instead of holding
 * the request until the Lambda timeout, and an outage is a 503. Exported for the
 * fault-injection tests, which add middleware to this very instance.
 */
export const s3 = answeringOutages(
  new S3Client({
    ...clientOptions('file storage'),
    ...(localStyle ? { forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED' as const } : {}),
  }),
  'file storage',
);

/** Object keys are unguessable (128 random bits): the URL is public, the listing is not. */
export const newObjectKey = (prefix: string, extension: string): string =>
  `${prefix}/${randomBytes(16).toString('hex')}.${extension}`;

/** The public URL of an object. */
export const objectUrl = (key: string): string => `${settings.PHOTO_BASE_URL}/${key}`;

/** The key of an object from its public URL, if the URL is one of this bucket's. */
export function objectKeyOf(url: string): string | undefined {
  const prefix = `${settings.PHOTO_BASE_URL}/`;
  return url.startsWith(prefix) && url.length > prefix.length ? url.slice(prefix.length) : undefined;
}

export async function putObject(
  key: string,
  body: Uint8Array | string,
  contentType: string,
  metadata: Record<string, string> = {},
): Promise<void> {
  await s3.send(
    new PutObjectCommand({
      Bucket: settings.PHOTO_BUCKET,
      Key: key,
      Body: body,
      ContentType: contentType,
      // A key is never reused for other bytes, so caches may keep it for good.
      CacheControl: 'public, max-age=31536000, immutable',
      Metadata: metadata,
    }),
  );
}

export async function deleteObject(key: string): Promise<void> {
  await s3.send(new DeleteObjectCommand({ Bucket: settings.PHOTO_BUCKET, Key: key }));
}

/** Deletes an object when nothing may fail because of it: a failure is logged, not thrown. */
export async function deleteObjectQuietly(key: string, why: string): Promise<void> {
  try {
    await deleteObject(key);
  } catch (error) {
    logger.warn('could not delete a bucket object; it is left behind', { key, why, error: error as Error });
  }
}
