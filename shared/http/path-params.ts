import * as z from '../schema.ts';
import { wholeNumber } from '../request-fields.ts';

/** Path parameters are strings on the wire; every id in a path is a positive integer. One schema per parameter name. */
export const PathId = z.lazy(() => z.strictObject({ id: wholeNumber('id', { positive: true }) }));
export const PathTicketId = z.lazy(() => z.strictObject({ ticketId: wholeNumber('ticketId', { positive: true }) }));
export const PathEventId = z.lazy(() => z.strictObject({ eventId: wholeNumber('eventId', { positive: true }) }));
