import { getAdministrator } from '../../identity/data/administrators.ts';
import { getWebhook } from '../data/webhooks.ts';
import type { Administrator } from '../../identity/domain/administrator.ts';
import type { Webhook } from '../domain/webhooks.ts';

/** Subscriptions and administrators read once per batch of attempts. */
export class AttemptContext {
  private readonly webhooks = new Map<number, Promise<Webhook | undefined>>();
  private readonly administrators = new Map<number, Promise<Administrator | undefined>>();

  webhook(id: number): Promise<Webhook | undefined> {
    if (!this.webhooks.has(id)) this.webhooks.set(id, getWebhook(id));
    return this.webhooks.get(id)!;
  }

  administrator(id: number): Promise<Administrator | undefined> {
    if (!this.administrators.has(id)) this.administrators.set(id, getAdministrator(id));
    return this.administrators.get(id)!;
  }

  /** A subscription the service just changed: the next attempt of this batch reads it again. */
  forget(webhookId: number): void {
    this.webhooks.delete(webhookId);
  }
}
