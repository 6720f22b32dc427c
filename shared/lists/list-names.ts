/**
 * The lists a ticket change writes for (README.md here): `GET /tickets`, `GET /ticket`, the gate's
 * admission list, and the check-in statistics kept in the same shards as the lists' counts. The
 * portal's lists read orders and events, so no ticket change writes for them.
 */
export type ListName = 'tickets' | 'older-tickets' | 'gate' | 'check-in-stats';

/** One action of a ticket change's transaction and the lists it keeps. */
export interface ListAction<A = unknown> {
  action: A;
  for: readonly ListName[];
}
