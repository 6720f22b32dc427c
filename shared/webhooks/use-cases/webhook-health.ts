import { now } from '../../clock.ts';
import { setWebhookHealth } from '../data/webhooks.ts';
import { actingFor, DISABLED_GONE, disabledFailing, type Webhook, windowInWords } from '../domain/webhooks.ts';
import type { AttemptVerdict } from '../domain/webhook-retries.ts';
import { logger } from '../../logger.ts';
import { sendEmail } from '../../services/email.ts';
import { recordWebhookDisabled } from '../../services/metrics.ts';
import { retrySchedule } from '../services/webhook-settings.ts';
import type { Administrator } from '../../identity/domain/administrator.ts';
import { disabledAimLost } from './webhook-aim.ts';

/** What the health needs of a batch's attempts (deliveries.ts `AttemptContext`): the creator, and a subscription to read again. */
interface HealthContext {
  administrator(id: number): Promise<Administrator | undefined>;
  forget(webhookId: number): void;
}

/**
 * The subscription's health after an attempt: delivered clears its failing mark; 410 Gone
 * turns it off; a failure marks when failing started, and once every attempt has failed for
 * the whole retry window it is turned off and its creator told by mail.
 */
export async function keepHealth(webhook: Webhook, verdict: AttemptVerdict, context: HealthContext): Promise<void> {
  const updated = now().toISOString();
  if (verdict.kind === 'delivered') {
    if (webhook.failingSince) await setWebhookHealth(webhook.id, { failingSince: null, updated });
  } else if (verdict.kind === 'gone') {
    await setWebhookHealth(webhook.id, { enabled: false, disabledReason: DISABLED_GONE, updated });
    if (webhook.enabled) recordWebhookDisabled('gone');
  } else if (!webhook.failingSince) {
    await setWebhookHealth(webhook.id, { failingSince: updated, updated });
  } else if (webhook.enabled && Date.parse(updated) - Date.parse(webhook.failingSince) >= retrySchedule.giveUpAfterMs) {
    const window = windowInWords(retrySchedule.giveUpAfterMs);
    await setWebhookHealth(webhook.id, { enabled: false, disabledReason: disabledFailing(window), updated });
    recordWebhookDisabled('failing');
    await mailCreator(webhook, context, window);
  } else return;
  context.forget(webhook.id);
}

async function mailCreator(webhook: Webhook, context: HealthContext, window: string): Promise<void> {
  const creator = await context.administrator(actingFor(webhook));
  if (!creator) return;
  try {
    await sendEmail({
      to: creator.email,
      subject: `Webhook ${webhook.id} is disabled: its receiver failed for ${window}`,
      text: [
        `Every delivery to ${webhook.url} failed for ${window}, so webhook ${webhook.id} is now disabled.`,
        'Its undelivered messages are listed by GET /webhooks/{id}/deliveries. Once the receiver answers,',
        'turn it back on with PATCH /webhooks/{id} {"enabled": true}, then send what it missed again with',
        'POST /webhooks/{id}/deliveries/redeliver {"from": ..., "to": ...} (or one with .../{deliveryId}/retry).',
      ].join('\n'),
    });
  } catch (error) {
    // The subscription is off either way; the mail is a courtesy the alarms do not depend on.
    logger.warn('webhook disabled, but its creator could not be mailed', { webhookId: webhook.id, error });
  }
}

/** Turns off a subscription whose administrator lost the right, unless someone changed it since it was read. */
export async function disableAimLost(webhook: Webhook, lost: string, context: HealthContext): Promise<void> {
  const disabled = await setWebhookHealth(
    webhook.id,
    { enabled: false, disabledReason: disabledAimLost(lost), updated: now().toISOString() },
    webhook.updated,
  );
  if (disabled) recordWebhookDisabled('aim_lost');
  context.forget(webhook.id);
}
