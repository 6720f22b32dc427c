import type { RouteKey } from '#shared/routes';
import { REFUSAL_REASONS } from '#shared/gate/domain/check-in';

/** The documentation text of one route (see bin/openapi/catalogue.ts). */
export interface RouteDoc {
  summary: string;
  description?: string;
  /** Descriptions of this route's parameters, over the shared ones in PARAMETERS. */
  parameters?: Record<string, string>;
  /** The `reason` values of the route's 409 answers (besides `request_in_flight` on idempotent rows). */
  conflicts?: readonly string[];
  /** Problem statuses the row and schemas do not imply (e.g. 401 from a login, 404 from a route without ids). */
  errors?: readonly (401 | 404)[];
  /** A request body example where the spec leaves the body open. */
  example?: unknown;
}

/** One tag's entries; catalogue.ts joins them and the type system checks every row has one. */
export type Entries = Partial<Record<RouteKey, RouteDoc>>;

/** Markdown paragraphs (or table rows, joined by single newlines where a line starts with `|`). */
export const md = (...blocks: readonly string[]) => blocks.join('\n\n');

/** A Markdown table: a header row and body rows. */
export const table = (header: readonly string[], rows: readonly (readonly string[])[]) =>
  [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

export const list = (values: readonly string[]) => values.map((value) => `\`${value}\``).join(', ');

export const SIGN_IN_MODE = 'Answers 403 when the other sign-in mode (`SITE_AUTH_METHOD`) is active.';
export const EVENT_SCOPE =
  'An administrator limited to some events gets 404 (as for a missing ticket) for anything outside them.';

/** Why a ticket's state change is refused (shared/tickets/domain/ticket-transitions.ts `StateRefusal`). */
export const STATE_REFUSALS = [
  'checked_in',
  'cancelled',
  'transferred',
  'deleted',
  'upgraded',
  'withdrawn',
  'use_check_in',
  'use_transfer',
  'not_admissible',
  'no_way_back',
] as const;
/** Unique values a ticket change can collide on (shared/tickets/data/ticket-changes.ts), and a write that lost a race. */
export const TICKET_WRITE = ['sold_out', 'bib_taken', 'barcode_taken', 'concurrent_update'] as const;
/** Why a claim is refused (shared/tickets/domain/claim.ts `ClaimRefusal`). */
export const CLAIM_REFUSALS = [
  'deleted',
  'transferred',
  'withdrawn',
  'cancelled',
  'checked_in',
  'claim_open',
  'already_claimed',
  'no_open_claim',
] as const;
/** Why the gate refuses a scan (shared/gate/domain/check-in.ts `RefusalReason`). */
export const SCAN_REFUSALS = REFUSAL_REASONS;
