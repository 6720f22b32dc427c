import * as z from '../../schema.ts';
import {
  PROCESS_STATES,
  TRANSFER_STATES,
  UPGRADE_STATES,
  WITHDRAWN_STATES,
  type ProcessState,
} from '../domain/ticket.ts';
import { wholeNumber } from '../../request-fields.ts';

/** The request and answer schemas of the older `/ticket` routes. */

/** A bib, as PATCH /tickets/{id} stores it: the spec types the path integer; numbers are a subset. */
export const BIB_PATTERN = /^[\w-]{1,20}$/;
export const BibPath = z.lazy(() =>
  z.strictObject({
    ticketId: wholeNumber('ticketId', { positive: true }),
    bib: z
      .string()
      .check(
        z.maxLength(20, { message: 'must be 1 to 20 letters, digits, - or _', abort: true }),
        z.regex(BIB_PATTERN, 'must be 1 to 20 letters, digits, - or _'),
      ),
  }),
);

const codeOf = <const T extends readonly string[]>(name: string, values: T) =>
  z.enum(values, `${name} must be one of ${values.join(', ')}`);

/**
 * `POST /ticket/{ticketId}/states`: each field optional, codes as the ticket answers them
 * (processState an integer here, as the spec's states body has it). `withdrawnState` is
 * ours beside the spec's four: reinstating a withdrawn ticket is a restore too.
 */
export const StatesBody = z.lazy(() =>
  z
    .strictObject({
      processState: z.optional(
        z.pipe(
          z
            .int()
            .check(
              z.refine(
                (code) => PROCESS_STATES.includes(code as ProcessState),
                `processState must be one of ${PROCESS_STATES.join(', ')}`,
              ),
            ),
          z.transform((code) => code as ProcessState),
        ),
      ),
      transferState: z.optional(codeOf('transferState', TRANSFER_STATES)),
      upgradeState: z.optional(codeOf('upgradeState', UPGRADE_STATES)),
      withdrawnState: z.optional(codeOf('withdrawnState', WITHDRAWN_STATES)),
      deleted: z.optional(z.literal([0, 1], 'deleted must be 0 or 1')),
    })
    .check(
      z.refine((body) => Object.values(body).some((value) => value !== undefined), 'must name at least one state'),
    ),
);

// ---- GET /ticket: the list's query, in the domain as the list takes it ------------------

export { OlderTicketListQuery } from '../domain/older-ticket-query.ts';

// The ticket and its claim as the other routes answer them too, defined in their own modules.
export { ClaimInfoResource } from './claims.ts';
export { TicketResource } from '../domain/ticket-resource.ts';
export { ClaimBody, ClaimantBody } from './claims.ts';
export { AnswerRecord } from '../domain/attendee-answers.ts';

/** A ticket of `GET /ticket`: its schema lives with the domain rule that builds it (`toListedTicket`). */
export { ListedTicketResource } from '../domain/older-ticket-view.ts';
