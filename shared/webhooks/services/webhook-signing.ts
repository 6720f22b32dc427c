import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks 1.0 signatures (https://www.standardwebhooks.com), by the `standardwebhooks`
 * package that receivers verify with: `webhook-signature` is `v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>`, one per signing secret, space-separated (two during a rotation's 24 hours).
 */
export function signatureHeaders(
  messageId: string,
  at: Date,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}

/** A new secret: `whsec_` and 32 random bytes in base64, the format the package's `new Webhook(secret)` takes. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;
