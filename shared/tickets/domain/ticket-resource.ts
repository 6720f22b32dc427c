import * as z from '../../schema.ts';
import {
  AttendeeAnswerResource,
  PROCESS_STATE,
  SINGLE_TICKET_INCLUDES,
  STATE_FIELDS,
  TICKET_ACTIONS,
  TRANSFER_STATES,
  UPGRADE_STATES,
  WITHDRAWN_STATES,
  type ProcessState,
  type TransferState,
  type UpgradeState,
  type WithdrawnState,
} from './ticket-codes.ts';

/**
 * The ticket as the API answers it, as a schema, and the types inferred from it (`Ticket`, its expansions, a
 * history entry): the ticket routes declare their answers with it (`route(..., { response })`), the OpenAPI
 * document's `Ticket` component is generated from it, and integration tests parse real answers with it, so the
 * documented shape cannot drift from the code. The `/tickets`, older `/ticket` and `/my-account` routes and the
 * webhooks' payload all answer it; the record the rules work on (ticket.ts `TicketRecord`) is built on `Ticket`.
 * Nothing parses answers per request.
 */

/** What each state code means. Typed by the constants, so a new code fails typecheck until it is described here. */
const PROCESS_STATE_MEANINGS: Record<ProcessState, string> = {
  [PROCESS_STATE.pending]: 'pending: reserved, not yet paid, holds a place, cannot be admitted',
  [PROCESS_STATE.active]: 'active: issued and valid, not yet admitted at its own event',
  [PROCESS_STATE.checkedIn]: 'checked in: admitted at its own event (a simple scan)',
  [PROCESS_STATE.cancelled]: "cancelled (the spec's code; `exclude_process_states=4` omits cancelled tickets)",
};
const TRANSFER_STATE_MEANINGS: Record<TransferState, string> = {
  none: 'not transferred',
  transferred: 'a transfer replaced this ticket by a new one (`transferredTo`); it no longer admits',
};
const UPGRADE_STATE_MEANINGS: Record<UpgradeState, string> = {
  none: 'not upgraded',
  upgraded: 'upgraded; does not affect eligibility',
};
const WITHDRAWN_STATE_MEANINGS: Record<WithdrawnState, string> = {
  none: 'not withdrawn',
  withdrawn: 'the attendee withdrew (e.g. from a race); it no longer admits',
};

/** `name: code = meaning; ...` for a description. */
const codes = (name: string, meanings: Record<string | number, string>) =>
  `${name}: ${Object.entries(meanings)
    .map(([code, meaning]) => `\`${code}\` = ${meaning}`)
    .join('; ')}.`;

const stateOf = <const T extends readonly string[]>(name: string, values: T, meanings: Record<T[number], string>) =>
  z.enum(values).check(z.describe(codes(name, meanings)));

const text = z.string();
const nullableText = z.lazy(() => z.nullable(z.string()));
const nullableInt = z.lazy(() => z.nullable(z.int()));
/** ISO-8601 UTC date-time. */
const timestamp = z.iso.datetime();

export { TICKET_ACTIONS, type TicketAction } from './ticket-codes.ts';

const stateValue = z.lazy(() => z.union([z.string(), z.number()]));

/** One entry of `_include=history` (shared/tickets/domain/ticket-history.ts): the change that produced `version`. */
export const TicketHistoryEntryResource = z.lazy(() =>
  z.strictObject({
    version: z.int(),
    at: timestamp,
    actor: text.check(z.describe('`admin <id>`, `customer <id>` or `system`.')),
    eventScope: z.optional(
      z
        .array(z.int())
        .check(z.describe('The events the administrator was limited to; absent for an administrator of every event.')),
    ),
    action: z.enum(TICKET_ACTIONS),
    states: z
      .partialRecord(z.enum(STATE_FIELDS), z.strictObject({ from: stateValue, to: stateValue }))
      .check(z.describe('Each state field that changed, from → to.')),
    fields: z.array(text).check(z.describe('The other fields that changed, by name.')),
    relatedTicketId: z.optional(z.int()),
  }),
);
export type TicketHistoryEntry = z.output<typeof TicketHistoryEntryResource>;
/**
 * What a creation's entry says beyond what every creation's entry says alike (version 1, no state moved, no field
 * changed): who, when, how, and for a transfer's new ticket the one it replaces. The record keeps it (ticket-history.ts).
 */
export type TicketCreation = Omit<TicketHistoryEntry, 'version' | 'states' | 'fields'>;

export const TicketResource = z
  .strictObject({
    id: z.int(),
    eventId: z.int(),
    typeId: z.int(),
    orderId: nullableInt,
    customerId: z
      .nullable(z.int())
      .check(z.describe('The customer whose order issued the ticket; null for staff sales.')),
    waveTimeId: z
      .nullable(z.int())
      .check(z.describe("The start wave (of the ticket's event) the ticket runs in; null when none.")),
    teamId: nullableInt,
    barcode: text,
    bibNumber: nullableText,
    chipNumber: nullableText,
    externalMembershipId: nullableText,
    processState: z
      .literal(Object.values(PROCESS_STATE) as ProcessState[])
      .check(z.describe(codes('Process state code', PROCESS_STATE_MEANINGS))),
    transferState: stateOf('Transfer state', TRANSFER_STATES, TRANSFER_STATE_MEANINGS),
    upgradeState: stateOf('Upgrade state', UPGRADE_STATES, UPGRADE_STATE_MEANINGS),
    withdrawnState: stateOf('Withdrawn state', WITHDRAWN_STATES, WITHDRAWN_STATE_MEANINGS),
    deleted: z
      .literal([0, 1] as const)
      .check(
        z.describe(
          'Deleted flag: `0` = live; `1` = deleted (soft delete: it left lists and statistics, and GET answers 404).',
        ),
      ),
    price: z.number(),
    taxAmount: z.number(),
    gratuityAmount: z.number(),
    paidUponCheckout: z.number(),
    partyMember: text,
    partyMemberLastName: text,
    emailAddress: nullableText,
    partyMemberBirthMonth: nullableInt,
    partyMemberBirthDay: nullableInt,
    partyMemberBirthYear: nullableInt,
    partyMemberTitle: nullableText,
    partyMemberCompany: nullableText,
    attendeeQuestions: z.array(AttendeeAnswerResource),
    profilePhoto: z.nullable(z.url()),
    transferredFrom: nullableInt,
    transferredTo: nullableInt,
    purchasedDate: timestamp.check(
      z.describe(
        "When the ticket was bought: its order's purchase time, else its creation; a transfer's replacement keeps the original's.",
      ),
    ),
    created: timestamp,
    updated: timestamp,
    // The `_include` expansions, present only when asked for.
    ticketClaim: z.optional(
      z.nullable(
        z
          .strictObject({
            isAClaim: z.boolean(),
            isClaimed: z.boolean(),
            state: z
              .enum(['open', 'claimed', 'cancelled'])
              .check(
                z.describe(
                  "`open` = sent, waiting for the claimant; `claimed` = accepted (the ticket is on the claimant's account); `cancelled` = the ticket was cancelled, transferred, withdrawn or deleted while the claim was open.",
                ),
              ),
            claimantEmail: nullableText,
            claimantUserId: nullableText,
            sentAt: z.nullable(timestamp),
            claimedAt: z.nullable(timestamp),
            claimedByCustomerId: nullableInt,
          })
          .check(z.describe("The ticket's claim (null when it was never sent as one).")),
      ),
    ),
    ticketRefund: z.optional(z.strictObject({ status: z.enum(['none', 'requested', 'refunded']), amount: z.number() })),
    purchaser: z.optional(
      z.nullable(z.strictObject({ firstName: text, lastName: text, email: text, phone: z.optional(text) })),
    ),
    checkInInfo: z.optional(
      z.strictObject({
        scannedTimestamp: z.nullable(timestamp),
        scans: z.array(
          z.strictObject({
            kind: z.enum(['simple', 'access_package']),
            eventId: z.int(),
            eventName: text,
            scannedTimestamp: timestamp,
          }),
        ),
      }),
    ),
    history: z.optional(
      z
        .strictObject({
          totalCount: z.int(),
          count: z.int(),
          limit: z.int(),
          offset: z.int(),
          data: z.array(TicketHistoryEntryResource),
        })
        .check(
          z.describe(
            "A page of the ticket's changes, newest first (`history_limit`, `history_offset`); `totalCount` is its version.",
          ),
        ),
    ),
  })
  .check(
    z.describe(
      `A ticket. Expansions by \`_include\`: ${SINGLE_TICKET_INCLUDES.join(', ')} (\`history\` on a single ticket only).`,
    ),
  );

/** The ticket as `GET /tickets/{id}` answers it; the expansions (`ticketClaim`...) only when asked for. */
type TicketAnswer = z.output<typeof TicketResource>;
/** The ticket without its history page, which only a single ticket shows (read-tickets.ts). */
export type Ticket = Omit<TicketAnswer, 'history'>;
/** `_include=history` on a single ticket: one page of its entries, newest first. */
export type TicketHistoryPage = NonNullable<TicketAnswer['history']>;
/** Change status (`_include=change_status`): the ticket's claim, if it was sent as one (claim.ts). */
export type TicketClaim = NonNullable<Ticket['ticketClaim']>;
/** Ticket status (`_include=ticket_status`): refund state. */
export type TicketRefund = NonNullable<Ticket['ticketRefund']>;
/** The purchaser's contact details (`_include=purchaser`). */
export type PurchaserContact = NonNullable<Ticket['purchaser']>;
/** `_include=checkInInfo`: the simple scan's time and every scan, at most one simple plus the access-package ones. */
export type CheckInInfo = NonNullable<Ticket['checkInInfo']>;
/** The writable attendee and sale fields (the spec's update body, without event, type and states). */
export type TicketFields = Pick<
  Ticket,
  | 'teamId'
  | 'barcode'
  | 'bibNumber'
  | 'chipNumber'
  | 'externalMembershipId'
  | 'price'
  | 'taxAmount'
  | 'gratuityAmount'
  | 'paidUponCheckout'
  | 'partyMember'
  | 'partyMemberLastName'
  | 'emailAddress'
  | 'partyMemberBirthMonth'
  | 'partyMemberBirthDay'
  | 'partyMemberBirthYear'
  | 'partyMemberTitle'
  | 'partyMemberCompany'
  | 'attendeeQuestions'
>;
