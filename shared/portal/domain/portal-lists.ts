import { ValidationError } from '../../errors.ts';
import type { Event } from '../../events/domain/event.ts';
import type { EventFilter } from './portal-event.ts';
import { wordsOf } from '../../domain/words.ts';

/**
 * The portal's lists (`GET /my-account/event`, `GET /my-account/orders`), pure: walked by
 * `next` (a `_cursor`, the sort key of the page's last item, as the sync and search of
 * `GET /ticket` encode theirs), `_offset` only within the first PORTAL_OFFSET_WINDOW matches,
 * the read bound of one page, and what the event search index holds and reads.
 */

/** `_offset` + `_limit` at most this (DESIGN.md: the sync, search and the portal's lists); deeper pages by `_cursor`. */
export const PORTAL_OFFSET_WINDOW = 1000;
/**
 * Index items one page reads at most (every source together). The default queries read
 * `_offset + _limit + 1` of them; the text filters and `ticketType` read until the page is
 * full or this bound is reached (then a 400 naming the narrower query, never a short page).
 */
export const PORTAL_READ_BUDGET = 2000;

/** 400: a page past the offset window; the cursor walks any depth. */
export function offsetPastWindow(): ValidationError {
  return new ValidationError(
    `_offset + _limit must stay within the first ${PORTAL_OFFSET_WINDOW} matches: walk further with each page's \`next\` as _cursor.`,
    [
      {
        path: 'query._offset',
        message: `_offset + _limit must be at most ${PORTAL_OFFSET_WINDOW}; continue with _cursor`,
      },
    ],
  );
}

/** 400: the filter on top of the read matched too few of the PORTAL_READ_BUDGET items one page reads. */
export function tooSparse(field: string, narrower: string): ValidationError {
  return new ValidationError(
    `Fewer than a page of matches among the ${PORTAL_READ_BUDGET} items one request reads: ${narrower}.`,
    [{ path: `query.${field}`, message: `matches too sparse within ${PORTAL_READ_BUDGET} items read` }],
  );
}

// ---- The event search index ----------------------------------------------------------

/**
 * How many characters of a token name its index partition, and the shortest word the index
 * serves: a published event has one entry per distinct 3-character start of the words of
 * its title, description, venue and venue address, in start order within the partition,
 * each carrying the event's tokens of that start. A word is found where it starts a word.
 */
export const EVENT_SEARCH_BUCKET = 3;
const MAX_TOKEN = 40;
/** Entries one event writes at most (one transaction holds them with the event): createEvent refuses more. */
export const MAX_EVENT_SEARCH_ENTRIES = 60;

type Texts = Pick<Event, 'title' | 'description' | 'venue' | 'venueAddress'>;

/** The event's search entries: its tokens (folded words) grouped by their first EVENT_SEARCH_BUCKET characters. */
export function eventSearchBuckets(event: Texts): Map<string, string[]> {
  const tokens = new Set(
    [event.title, event.description, event.venue, event.venueAddress]
      .flatMap(wordsOf)
      .filter((token) => token.length >= EVENT_SEARCH_BUCKET)
      .map((token) => token.slice(0, MAX_TOKEN)),
  );
  const buckets = new Map<string, string[]>();
  for (const token of [...tokens].sort()) {
    const bucket = token.slice(0, EVENT_SEARCH_BUCKET);
    buckets.set(bucket, [...(buckets.get(bucket) ?? []), token]);
  }
  return buckets;
}

/** A word the index reads for a filter: events holding a token it starts are the candidates. */
export interface EventSearchKey {
  word: string;
  bucket: string;
}

const keyOf = (words: string[]): EventSearchKey | undefined => {
  const word = words
    .filter((candidate) => candidate.length >= EVENT_SEARCH_BUCKET)
    .sort((a, b) => b.length - a.length)[0]
    ?.slice(0, MAX_TOKEN);
  return word ? { word, bucket: word.slice(0, EVENT_SEARCH_BUCKET) } : undefined;
};

/**
 * The index word of the filters: `search`'s longest word (a search finds words by their
 * start: README "Where we differ from the spec"); else `title`'s longest word that must start a word of
 * the title (a literal part's words, but not the first of a part a `%` leads into, which
 * may sit inside a word). Undefined when neither has one of EVENT_SEARCH_BUCKET characters:
 * the published events are then read by start with the filters on top.
 */
export function eventSearchKey(filter: EventFilter): EventSearchKey | undefined {
  if (filter.search) {
    const key = keyOf(wordsOf(filter.search));
    if (key) return key;
  }
  if (filter.title === undefined) return undefined;
  const starts = filter.title.split('%').flatMap((part, i) => {
    const words = wordsOf(part);
    const insideWord = i > 0 && /^[\p{L}\p{N}]/u.test(part);
    return insideWord ? words.slice(1) : words;
  });
  return keyOf(starts);
}

/** Whether an entry's tokens hold one the word starts. */
export const entryHolds = (tokens: readonly string[], word: string): boolean =>
  tokens.some((token) => token.startsWith(word));
