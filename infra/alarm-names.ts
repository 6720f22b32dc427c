import type { RouteRow } from '#shared/routes';
import type { StageName } from './stages.ts';

/** Every alarm's and the topic's name: `ticketing-<stage>-<suffix>` (a deployment group finds its rollback alarms by it, infra/route-group.ts). */
export const alarmName = (stage: StageName, suffix: string): string => `ticketing-${stage}-${suffix}`;

/** A route's part of its alarms' names: `tickets/check-in` → `tickets-check-in`. */
export const routeSlug = (row: Pick<RouteRow, 'handler'>): string => row.handler.replace(/[^A-Za-z0-9]+/g, '-');
