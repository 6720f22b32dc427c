/**
 * One-off, after the release that encrypted the webhooks' signing secrets (README "Webhooks",
 * functions/jobs/README.md): seals every secret still stored in plain text, and every one sealed
 * under a key other than the current one (how a key rotation finishes), with the webhook's id
 * as context. Until it has run, a plain-text secret signs nothing (webhook-secret-box.ts
 * `openSecret` opens sealed secrets only: its attempts fail saying so). Migration 7 (catalogue.ts).
 *
 * Idempotent: a subscription whose secrets are all sealed under the current key is left as it
 * is; each is replaced only if unchanged since read (`updated`, which the write moves on, so an
 * edit that read the plain text before cannot put it back), else read again. Resumable: the
 * subscriptions (at most MAX_WEBHOOKS, one bounded Query) are done in id order, the last one
 * finished kept (`MAINTENANCE#seal-webhook-secrets` / `CHECKPOINT#<run>`).
 */
import { now } from '#shared/clock';
import { getWebhook, listWebhooks, replaceWebhook } from '#shared/data/webhooks';
import type { Webhook } from '#shared/domain/webhooks';
import { needsSealing, openSecret, sealSecret } from '#shared/services/webhook-secret-box';
import { checkpointOf, type RunOptions, type Stopped } from './runs.ts';

export interface SealWebhookSecretsOutcome extends Stopped {
  /** Subscriptions whose secrets were sealed (again). */
  sealed: number;
}

export interface SealWebhookSecretsOptions extends RunOptions {
  /** Only these subscriptions (tests, on the shared table); default every one. */
  webhooks?: number[];
}

const COMMAND = 'seal-webhook-secrets';

export async function sealWebhookSecrets({
  webhooks,
  run = 'all',
  restart = false,
  progress,
  stop,
}: SealWebhookSecretsOptions = {}): Promise<SealWebhookSecretsOutcome> {
  const outcome: SealWebhookSecretsOutcome = { sealed: 0 };
  const checkpoint = checkpointOf(COMMAND, run, 'lastWebhookId');
  const after = restart ? 0 : ((await checkpoint.last()) ?? 0);
  const todo = (webhooks ?? (await listWebhooks()).map((webhook) => webhook.id))
    .sort((a, b) => a - b)
    .filter((id) => id > after);
  for (const [index, id] of todo.entries()) {
    if (stop?.()) return { ...outcome, stopped: true };
    if (await sealOne(id)) outcome.sealed += 1;
    await checkpoint.done(id);
    progress?.(index + 1, todo.length);
  }
  return outcome;
}

/** Seals one subscription's secrets; true when it wrote. Read again while a colleague's edit races it. */
async function sealOne(id: number): Promise<boolean> {
  for (;;) {
    const current = await getWebhook(id);
    if (!current) return false;
    const stale = await Promise.all(current.secrets.map((s) => needsSealing(s.secret)));
    if (!stale.includes(true)) return false;
    const secrets: Webhook['secrets'] = await Promise.all(
      current.secrets.map(async (s, i) =>
        // Plain text is the one thing this migration reads as it is: openSecret opens sealed secrets only.
        stale[i]
          ? {
              ...s,
              secret: await sealSecret(typeof s.secret === 'string' ? s.secret : await openSecret(s.secret, id), id),
            }
          : s,
      ),
    );
    // Moved on (at least a millisecond), so the write is a change an edit that read the plain text must notice.
    const updated = new Date(Math.max(now().getTime(), Date.parse(current.updated) + 1)).toISOString();
    if (await replaceWebhook({ ...current, secrets, updated }, current.updated)) return true;
  }
}
