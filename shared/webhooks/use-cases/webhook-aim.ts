import type { Permission } from '../../auth/permissions.ts';
import type { Administrator } from '../../identity/domain/administrator.ts';
import { actingFor, type SubscribableType, type Webhook } from '../domain/webhooks.ts';
import { inScope } from '../../identity/use-cases/event-scope.ts';

/**
 * Whether a subscription's administrator can still deliver through it: the rules the subscription routes check on
 * every change and the deliveries before each batch. Apart from its health (webhook-health.ts, which mails), so the
 * subscription routes carry no mail client.
 */

/** The permissions reading what a subscription's types send: `tickets:read` always, `events:read` with the `event.*` types. */
export const readsNeeded = (events: readonly SubscribableType[]): Permission[] =>
  events.some((type) => type.startsWith('event.')) ? ['tickets:read', 'events:read'] : ['tickets:read'];

/**
 * Why the administrator a subscription acts for can deliver nothing through it any more
 * (removed, without `webhooks:manage` or what reads its types, `readsNeeded`, or no longer
 * reaching all of its events); undefined while they can. Then it is turned off rather than
 * cancelling each delivery unseen: `GET` says why, and a colleague with the rights takes it
 * over by aiming it.
 */
export function aimLost(
  administrator: Administrator | undefined,
  webhook: Pick<Webhook, 'eventIds' | 'actsFor' | 'createdBy' | 'events'>,
): string | undefined {
  const who = `its administrator (${actingFor(webhook)})`;
  if (!administrator) return `${who} is no longer an administrator`;
  const needed = ['webhooks:manage' as const, ...readsNeeded(webhook.events)];
  const lacking = needed.find((permission) => !administrator.permissions.includes(permission));
  if (lacking === 'events:read') return `${who} may no longer read events through webhooks`;
  if (lacking) return `${who} may no longer read tickets through webhooks`;
  const scope = administrator.eventScope;
  if (scope && (webhook.eventIds === null || webhook.eventIds.some((id) => !inScope(scope, id))))
    return `${who} no longer reaches all of its events`;
  return undefined;
}

/** The reason a subscription shows once turned off for `lost`. */
export const disabledAimLost = (lost: string) =>
  `${lost}: an administrator with tickets:read takes it over by aiming it (PATCH url, events or eventIds)`;
