import * as z from '../../schema.ts';
import { OLDER_TICKET_INCLUDES } from './older-ticket-view.ts';
import { instant, ticketPagingQuery, wholeNumber } from '../../request-fields.ts';

/** `GET /ticket`'s query, as the list's use case takes it and the list engine its filters (a type only). */

const positive = (name: string) => z.optional(wholeNumber(name, { positive: true }));
const ordered = (from: string | undefined, to: string | undefined) =>
  from === undefined || to === undefined || from <= to;

/**
 * The list's filters (AND; instants ISO-8601 UTC, ranges inclusive), its expansions and paging. Which filter bounds
 * the read (and the 400 when none does) is the list engine's choice (shared/lists/older-ticket-list.ts); here: each
 * value's form.
 */
export const OlderTicketListQuery = z.lazy(() =>
  z
    .strictObject({
      orderId: positive('orderId'),
      eventId: positive('eventId'),
      typeId: positive('typeId'),
      customerId: positive('customerId'),
      barcode: z.optional(
        z
          .string()
          .check(
            z.minLength(1, 'barcode must not be empty'),
            z.maxLength(100, 'barcode must be at most 100 characters'),
          ),
      ),
      search: z.optional(
        z
          .string()
          .check(z.minLength(1, 'search must not be empty'), z.maxLength(100, 'search must be at most 100 characters')),
      ),
      purchasedFrom: z.optional(instant('purchasedFrom', 'from')),
      purchasedTo: z.optional(instant('purchasedTo', 'to')),
      updatedFrom: z.optional(instant('updatedFrom', 'from')),
      updatedTo: z.optional(instant('updatedTo', 'to')),
      _include: z._default(
        z.pipe(
          z.pipe(
            // At most as long as every value listed once.
            z
              .string()
              .check(
                z.maxLength(
                  OLDER_TICKET_INCLUDES.join(', ').length,
                  `_include must list values among ${OLDER_TICKET_INCLUDES.join(', ')}`,
                ),
              ),
            z.transform((value) => [
              ...new Set(
                value
                  .split(',')
                  .map((part) => part.trim())
                  .filter(Boolean),
              ),
            ]),
          ),
          z.array(z.enum(OLDER_TICKET_INCLUDES, `_include must list values among ${OLDER_TICKET_INCLUDES.join(', ')}`)),
        ),
        [],
      ),
      ...ticketPagingQuery,
    })
    .check(
      z.refine((query) => ordered(query.purchasedFrom, query.purchasedTo), {
        message: 'purchasedTo must not be before purchasedFrom',
        path: ['purchasedTo'],
      }),
      z.refine((query) => ordered(query.updatedFrom, query.updatedTo), {
        message: 'updatedTo must not be before updatedFrom',
        path: ['updatedTo'],
      }),
    ),
);
export type OlderTicketListQuery = z.output<typeof OlderTicketListQuery>;

/** The list's filters alone: what the list engine pages by. */
export type OlderTicketFilters = Omit<OlderTicketListQuery, '_include' | '_limit' | '_offset' | '_cursor'>;
