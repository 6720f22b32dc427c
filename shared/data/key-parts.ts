import type { GlobalIndexName } from './table-schema.ts';
import type { Partition } from './key-conditions.ts';

/** The parts every key declaration (keys.ts, customer-keys.ts) is built from. */
export type Key = { PK: string; SK: string };

export const table = (value: string): Partition => ({ value });
export const on = (index: GlobalIndexName, value: string): Partition => ({ index, value });

/** Zero-padded so that ids sort numerically inside a string sort key. */
export const sortableId = (id: number): string => String(id).padStart(10, '0');

/** The sort key of every ticket list: id order; `{ after: ticketSort(id) }` resumes after a cursor. */
export const ticketSort = (id: number) => `TICKET#${sortableId(id)}`;
/** The sort key of the lists by purchase time (an event's, a type's, a customer's orders): the instant, then the id. */
export const purchaseSort = (purchasedDate: string, id: number) => `${purchasedDate}#${sortableId(id)}`;
export const lower = (text: string) => text.trim().toLowerCase();
