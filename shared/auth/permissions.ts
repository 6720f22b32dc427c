/**
 * Named permissions carried by administrator records and tokens. Their own module, below
 * the route table (which names one per admin row), the tokens and the administrator
 * records, so none of those needs the other.
 */
export const PERMISSIONS = [
  'shipping:read',
  'shipping:write',
  'tickets:read',
  'tickets:write',
  'checkin:scan',
  /** Undo a check-in (the gate's only way back from checked-in): separate from scanning on purpose. */
  'checkin:undo',
  'customers:manage',
  /** Manage webhook subscriptions (README "Webhooks"); their deliveries also need `tickets:read`, at delivery time. */
  'webhooks:manage',
  /** Read events and their ticket types, waves, questions, waivers, teams and history (README "Where we differ from the spec"). */
  'events:read',
  /** Create, edit, publish and delete events and their ticket types (unscoped administrators create them). */
  'events:write',
  /** Read orders (`GET /orders`, `GET /orders/{id}`) within the caller's events. */
  'orders:read',
  /** Cancel an order and refund its payment (`POST /orders/{id}/cancel`). */
  'orders:refund',
  /** Sell at the box office (`POST /orders`). Declared now so `--permissions all` grants it. */
  'orders:sell',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Permissions over what every event shares: the stage's shipping methods, which every event's buyers are offered. An
 * administrator limited to some events (README "Event-scoped staff") never holds them, whatever their record names:
 * a change there would reach other organisers' events.
 */
export const STAGE_WIDE_PERMISSIONS: readonly Permission[] = ['shipping:write'];

export const isStageWide = (permission: Permission): boolean => STAGE_WIDE_PERMISSIONS.includes(permission);

/** What an administrator may do: their record's permissions, less the stage-wide ones when limited to some events. */
export const heldPermissions = (permissions: readonly Permission[], eventScope: readonly number[] | undefined) =>
  eventScope ? permissions.filter((permission) => !isStageWide(permission)) : [...permissions];
