import type { AdminPrincipal } from '../../auth/tokens.ts';
import { now } from '../../clock.ts';
import {
  createWebhook,
  deleteWebhook as removeWebhook,
  getWebhook,
  listWebhooks,
  replaceWebhook,
} from '../data/webhooks.ts';
import { getAdministrator } from '../../identity/data/administrators.ts';
import type { Page } from '../../domain/paging.ts';
import {
  actingFor,
  type NewWebhook,
  ROTATION_OVERLAP_MS,
  type SubscribableType,
  toWebhookResource,
  type Webhook,
  type WebhookPatch,
  type WebhookResource,
} from '../domain/webhooks.ts';
import { Conflict, Forbidden, NotFound, ValidationError } from '../../errors.ts';
import { checkReceiverUrl } from '../services/webhook-sender.ts';
import { sealSecret } from '../services/webhook-secret-box.ts';
import { newSigningSecret } from '../services/webhook-signing.ts';
import { receiverPolicy } from '../services/webhook-settings.ts';
import { inScope } from '../../identity/use-cases/event-scope.ts';
import { aimLost, readsNeeded } from './webhook-aim.ts';

/**
 * The /webhooks routes (README "Webhooks"). Event-scoped staff (identity/use-cases/event-scope.ts)
 * subscribe only within their events: their subscriptions must name events, all in their
 * scope, and they see and manage only such subscriptions (any other is 404, as elsewhere).
 */
type Caller = Pick<AdminPrincipal, 'id' | 'eventScope' | 'permissions'>;

/**
 * Whoever sets a subscription's url, events or eventIds becomes the administrator it delivers
 * for (`actsFor`): they must be able to read what it sends (403 otherwise, nothing changed):
 * `tickets:read`, and `events:read` for the `event.*` types, so managing webhooks never reads
 * more than one's own permissions allow.
 */
function mayAim(caller: Caller, events: readonly SubscribableType[]): void {
  const missing = readsNeeded(events).find((permission) => !caller.permissions.includes(permission));
  if (missing)
    throw new Forbidden(
      `Aiming a webhook (its url, events or eventIds) makes it deliver ${missing === 'tickets:read' ? 'tickets' : 'event changes'} for you: that needs ${missing}.`,
    );
}

const visibleTo = (caller: Pick<Caller, 'eventScope'>, webhook: Pick<Webhook, 'eventIds'>): boolean =>
  !caller.eventScope || webhook.eventIds?.every((id) => inScope(caller.eventScope, id)) === true;

/** A subscription the caller may manage; 404 otherwise. */
export async function visibleWebhook(caller: Pick<Caller, 'eventScope'>, id: number): Promise<Webhook> {
  const webhook = await getWebhook(id);
  if (!webhook || !visibleTo(caller, webhook)) throw new NotFound('Webhook', id);
  return webhook;
}

/** 400 naming the field when the receiver URL or the event filter is not acceptable for this caller. */
async function checkTarget(caller: Caller, target: Pick<Webhook, 'url' | 'eventIds'>, changed: { url: boolean }) {
  if (caller.eventScope) {
    if (target.eventIds === null)
      throw new ValidationError('Limited to some events, you must name them in eventIds.', [
        { path: 'body.eventIds', message: 'must list events of yours' },
      ]);
    const outside = target.eventIds.find((id) => !inScope(caller.eventScope, id));
    if (outside !== undefined)
      throw new ValidationError(`Event ${outside} is not one of your events.`, [
        { path: 'body.eventIds', message: `event ${outside} is not one of your events` },
      ]);
  }
  if (!changed.url) return;
  const problem = await checkReceiverUrl(target.url, receiverPolicy);
  if (problem)
    throw new ValidationError(`The webhook url is refused: ${problem}.`, [{ path: 'body.url', message: problem }]);
}

const uniqueSorted = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

export async function createWebhookFor(
  caller: Caller,
  input: NewWebhook,
): Promise<WebhookResource & { secret: string }> {
  mayAim(caller, input.events);
  const target = { url: input.url, eventIds: input.eventIds ? uniqueSorted(input.eventIds) : null };
  await checkTarget(caller, target, { url: true });
  const at = now().toISOString();
  const secret = newSigningSecret();
  const webhook = await createWebhook(
    {
      ...target,
      events: [...new Set(input.events)],
      enabled: input.enabled ?? true,
      description: input.description ?? '',
      createdBy: caller.id,
      actsFor: caller.id,
      disabledReason: null,
      failingSince: null,
      created: at,
      updated: at,
    },
    async (id) => [{ secret: await sealSecret(secret, id) }],
  );
  return { ...toWebhookResource(webhook), secret };
}

export async function listWebhooksFor(
  caller: Caller,
  page: { limit: number; offset: number },
): Promise<Page<WebhookResource>> {
  const visible = (await listWebhooks()).filter((webhook) => visibleTo(caller, webhook));
  return {
    totalCount: visible.length,
    limit: page.limit,
    offset: page.offset,
    items: visible.slice(page.offset, page.offset + page.limit).map(toWebhookResource),
  };
}

export const getWebhookFor = async (caller: Caller, id: number): Promise<WebhookResource> =>
  toWebhookResource(await visibleWebhook(caller, id));

/** Writes a changed subscription if nobody changed it since it was read (409 `stale_version` otherwise). */
async function replace(webhook: Webhook, expectedUpdated: string): Promise<void> {
  if (!(await replaceWebhook(webhook, expectedUpdated)))
    throw new Conflict(`Webhook ${webhook.id} changed meanwhile: read it again.`, 'stale_version');
}

/**
 * A patch; turning a subscription back on also forgets why the service had turned it off. A
 * patch naming url, events or eventIds (even unchanged) aims it: the caller becomes the
 * administrator it delivers for, which is how a colleague takes over a subscription whose
 * administrator left or lost the permission.
 */
export async function updateWebhookFor(caller: Caller, id: number, patch: WebhookPatch): Promise<WebhookResource> {
  const current = await visibleWebhook(caller, id);
  const aims = patch.url !== undefined || patch.events !== undefined || patch.eventIds !== undefined;
  if (aims) mayAim(caller, patch.events ?? current.events);
  else if (patch.enabled && !current.enabled) {
    // Turned on as it is, it would deliver for an administrator who can no longer read what it sends.
    const lost = aimLost(await getAdministrator(actingFor(current)), current);
    if (lost)
      throw new Conflict(
        `Webhook ${id} cannot be turned on as it is: ${lost}. Aim it (url, events or eventIds, with enabled: true) to take it over.`,
        'webhook_aim_lost',
      );
  }
  const next: Webhook = {
    ...current,
    ...(aims ? { actsFor: caller.id } : {}),
    ...(patch.url !== undefined ? { url: patch.url } : {}),
    ...(patch.events !== undefined ? { events: [...new Set(patch.events)] } : {}),
    ...(patch.eventIds !== undefined ? { eventIds: patch.eventIds ? uniqueSorted(patch.eventIds) : null } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(patch.enabled ? { disabledReason: null, failingSince: null } : {}),
    updated: now().toISOString(),
  };
  await checkTarget(caller, next, { url: next.url !== current.url });
  await replace(next, current.updated);
  return toWebhookResource(next);
}

export async function deleteWebhookFor(caller: Caller, id: number): Promise<void> {
  await visibleWebhook(caller, id);
  if (!(await removeWebhook(id))) throw new NotFound('Webhook', id);
}

/**
 * A new current secret; the previous one keeps signing for 24 hours (each message carries
 * both signatures), so a receiver can switch without losing a message. Secrets already past
 * their 24 hours are dropped.
 */
export async function rotateWebhookSecret(caller: Caller, id: number): Promise<WebhookResource & { secret: string }> {
  const current = await visibleWebhook(caller, id);
  const at = now();
  const until = new Date(at.getTime() + ROTATION_OVERLAP_MS).toISOString();
  const secret = newSigningSecret();
  const kept = current.secrets
    .filter((s) => !s.expiresAt || Date.parse(s.expiresAt) > at.getTime())
    .map((s) => ({ secret: s.secret, expiresAt: s.expiresAt ?? until }));
  const next: Webhook = {
    ...current,
    secrets: [{ secret: await sealSecret(secret, id) }, ...kept],
    updated: at.toISOString(),
  };
  await replace(next, current.updated);
  return { ...toWebhookResource(next), secret };
}
