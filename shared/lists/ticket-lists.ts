import type { Page } from '../domain/paging.ts';
import type { TicketRecord } from '../tickets/domain/ticket.ts';
import { decodeCursor, encodeCursor, includedStates, positionLists, type TicketListQuery } from './ticket-list-plan.ts';
import { POSITION_BLOCK } from './list-position-plan.ts';
import { startOfOffset, type ListStart } from './list-position-reads.ts';
import { countedOf, countsOf, shareOf, type Counts } from './ticket-list-counts.ts';
import { idsAt, readPage } from './ticket-list-reads.ts';
import { listedRecords } from '../tickets/data/ticket-records.ts';

export interface TicketListPage extends Page<TicketRecord> {
  /** The cursor of the following page; null on the last one. */
  next: string | null;
  /** `totalCount` is an upper bound: more than MAX_COUNTED_PAIRS team × type pairs, or access events beside other events whose granting types are too many to count (`countIsExact`), and the read did not reach the end. */
  totalCountIsEstimate: boolean;
}

/**
 * `GET /tickets`: a page in id order (newest first across events). The most selective
 * dimension by its kept count (the events' own lists, the teams', the types' or the
 * included states'; every event's: the all-events list) is the Query, each requested access
 * event's granted entries are Queried too, and the other filters are applied to what those
 * read. An `_offset` page starts from the kept list positions (list-positions.ts: the blocks
 * before it summed, then fewer than a block skipped), so it costs the same at any depth;
 * `_cursor` resumes after an id. Matches too sparse to fill the page within LIST_READ_BUDGET
 * index items are read from the blocks the positions say hold them (ticket-list-reads.ts
 * `readByBlocks`); a page that still cannot be filled is a 400 naming narrower filters,
 * never a short page. Entries are small: the page's
 * tickets are then one BatchGetItem. `totalCount` comes from the kept counts (see
 * `countIsExact`), or from the read when it reached the end.
 */
export async function listTicketRecords(query: TicketListQuery): Promise<TicketListPage> {
  const counts = await countsOf(query);
  const counted = countedOf(query, counts);
  const paging = { limit: query.limit, offset: query.offset };
  if (counted !== undefined && query.cursor === undefined && query.offset >= counted) {
    return { totalCount: counted, ...paging, items: [], next: null, totalCountIsEstimate: false };
  }
  if (query.newestFirst) {
    if (counted === undefined)
      throw new Error('newestFirst needs a combination with exact counts (the events alone or all of them).');
    return {
      totalCount: counted,
      ...paging,
      ...(await newestFirstPage(query, counts, counted)),
      totalCountIsEstimate: false,
    };
  }
  const start = await startOf(query, counts, counted);
  if (start.block) {
    // From the kept positions (so `counted` is exact): the page read from its block's nearer end.
    const at = await idsAt(query, counts, start, query.limit);
    const more = query.offset + at.pageIds.length < counted!;
    return {
      totalCount: counted!,
      ...paging,
      items: await listedRecords(at.pageIds.map((id) => at.byId.get(id)!)),
      next: at.pageIds.length === query.limit && more ? encodeCursor(at.pageIds.at(-1)!) : null,
      totalCountIsEstimate: false,
    };
  }
  const { ids, byId, more, complete } = await readPage(query, counts, start, false);
  const pageIds = ids.slice(start.skip, start.skip + query.limit);
  const items = await listedRecords(pageIds.map((id) => byId.get(id)!));
  const read = complete && start.after === undefined ? ids.length : undefined;
  const bound =
    Math.min(
      counts.event.counted,
      ...(query.teams?.length ? [counts.team.counted] : []),
      ...(query.ticketTypes?.length ? [counts.type.counted] : []),
    ) + counts.access.counted;
  return {
    totalCount: counted ?? read ?? Math.max(bound, ids.length),
    ...paging,
    items,
    next: pageIds.length === query.limit && more ? encodeCursor(pageIds.at(-1)!) : null,
    totalCountIsEstimate: counted === undefined && read === undefined,
  };
}

/**
 * Newest first: read from the list's high end down, after the cursor's id or skipping a
 * small `_offset`. A deeper page at `_offset` is the id-ordered page at `total - offset -
 * limit`, reversed (the counts are exact, so the mirror is too), found from the kept
 * positions. `next` resumes below the page's lowest id.
 */
async function newestFirstPage(
  query: TicketListQuery,
  counts: Counts,
  total: number,
): Promise<Pick<TicketListPage, 'items' | 'next'>> {
  let pageIds: number[];
  let byId: Map<number, Record<string, unknown>>;
  let more: boolean;
  if (query.cursor === undefined && query.offset >= POSITION_BLOCK) {
    const from = Math.max(0, total - query.offset - query.limit);
    const window = total - query.offset - from;
    const start = await startOfOffset(
      positionLists(query, counts.grants)!,
      includedStates(query),
      from,
      total,
      shareOf(counts, total),
    );
    const at = await idsAt(query, counts, start, window);
    pageIds = at.pageIds.reverse();
    byId = at.byId;
    more = from > 0;
  } else {
    const start =
      query.cursor === undefined
        ? { after: undefined, skip: query.offset }
        : { after: decodeCursor(query.cursor, true), skip: 0 };
    const read = await readPage(query, counts, start, true);
    pageIds = read.ids.slice(start.skip, start.skip + query.limit);
    byId = read.byId;
    more = read.more;
  }
  const items = await listedRecords(pageIds.map((id) => byId.get(id)!));
  return { items, next: pageIds.length === query.limit && more ? encodeCursor(pageIds.at(-1)!, true) : null };
}

/** Where the page starts: after the cursor's id; at an offset, from the kept positions when the combination has them (else read from the start). */
async function startOf(query: TicketListQuery, counts: Counts, counted: number | undefined): Promise<ListStart> {
  if (query.cursor !== undefined) return { after: decodeCursor(query.cursor), skip: 0 };
  const lists = query.offset > 0 && counted !== undefined ? positionLists(query, counts.grants) : undefined;
  if (!lists) return { after: undefined, skip: query.offset };
  return startOfOffset(lists, includedStates(query), query.offset, counted!, shareOf(counts, counted!));
}
