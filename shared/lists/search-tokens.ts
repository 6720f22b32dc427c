import type { TicketRecord } from '../tickets/domain/ticket.ts';
import { fold, wordsOf } from '../domain/words.ts';

/**
 * The attendee search (`GET /ticket?search=`), pure: what a ticket can be found by and
 * what a search means. A ticket's tokens are the words of its attendee first and last
 * name, the local part of its email address (its words, and the whole of it), its barcode
 * and its bib, folded (lower case, accents removed: "Émile" is found by "emile"). A search
 * is one or more words; a ticket matches when every word starts one of its tokens (prefix
 * match on words; a word with `@` or `.` must start its email address), or the search is
 * its id. The tokens are kept as index items, written after each change by the table
 * stream's consumer (ticket-search-entries.ts), so a search reads only
 * the tickets it finds. Words are folded as the portal's event search folds them
 * (shared/domain/words.ts).
 */

/** The shortest search word the index serves (a one-letter prefix would read half an event). */
export const MIN_SEARCH_WORD = 2;
/** A token's characters at most, and the tokens a ticket has at most (the index items it writes). */
const MAX_TOKEN = 40;
const MAX_TOKENS = 8;
/** How many characters of a token name its index partition: every search word reaches exactly one. */
export const SEARCH_BUCKET = MIN_SEARCH_WORD;

/** Characters a whole local part may hold to be a token of its own (those a search sort key and its cursor carry). */
const LOCAL_PART = /^[\p{L}\p{N}._+-]+$/u;

/** An email address's folded local part, whole, when a sort key can carry it ('' otherwise). */
const wholeLocalPart = (address: string): string => {
  const local = fold(address.split('@')[0] ?? '');
  return LOCAL_PART.test(local) ? local.slice(0, MAX_TOKEN) : '';
};

/** The ticket's search tokens (distinct, in a stable order); none for a deleted ticket. */
export function searchTokens(record: TicketRecord): string[] {
  if (record.deleted) return [];
  const local = record.emailAddress ? (record.emailAddress.split('@')[0] ?? '') : '';
  // The whole local part too ("ada.okafor.12"), so an address's start is one selective prefix read.
  const address = record.emailAddress ? [wholeLocalPart(record.emailAddress)] : [];
  const candidates = [
    ...wordsOf(record.partyMember),
    ...wordsOf(record.partyMemberLastName),
    ...address,
    ...[local, record.barcode, record.bibNumber].flatMap(wordsOf),
  ];
  const tokens = [
    ...new Set(candidates.filter((token) => token.length >= MIN_SEARCH_WORD).map((token) => token.slice(0, MAX_TOKEN))),
  ];
  return tokens.slice(0, MAX_TOKENS);
}

/**
 * What a search reads in the index: the tokens starting `word`, or (`exact`) the one token
 * `word`: an address word up to its `@` names its whole local part, so `lea.ng.5@` reads
 * that address's entries only, not `lea.ng.50…` as well.
 */
export interface SearchKey {
  word: string;
  exact: boolean;
}

/** The index read of a search word (see `indexWord`). */
export const searchKeyOf = (word: string): SearchKey => ({
  word: indexWord(word),
  exact: word.includes('@') && wholeLocalPart(word) !== '',
});

/** A search part that is an email address or its start: it holds `@` or a `.` (names, barcodes and bibs are matched by their words). */
const isAddressWord = (part: string): boolean => part.includes('@') || part.includes('.');

/**
 * A search's words as the index reads them, the longest first (the most selective
 * partition): each whitespace-separated part split as tokens are (letters and digits),
 * except an address word (with `@` or `.`), kept whole. Words shorter than
 * MIN_SEARCH_WORD are dropped (they would start too many tokens to mean anything).
 */
export function searchWords(search: string): string[] {
  const parts = search.split(/\s+/).filter(Boolean);
  const words = parts.flatMap((part) => (isAddressWord(part) ? [fold(part)] : wordsOf(part)));
  return [...new Set(words.filter((word) => indexWord(word).length >= MIN_SEARCH_WORD))].sort(
    (a, b) => indexWord(b).length - indexWord(a).length,
  );
}

/**
 * The word a search word is looked up by in the index. An address word: its local part
 * whole, the start of the whole-local-part token (tokens hold no domains); one a sort key
 * cannot carry falls back to its longest word (then checked on top).
 */
export const indexWord = (word: string): string => {
  if (!isAddressWord(word)) return wordsOf(word)[0] ?? '';
  const whole = wholeLocalPart(word);
  return whole || ([...wordsOf(word.split('@')[0])].sort((a, b) => b.length - a.length)[0] ?? '');
};

/** Whether every word of the search starts one of the tokens (an address word: starts the ticket's email address), or the search is the ticket's id. */
export function matchesSearch(record: TicketRecord, search: string): boolean {
  if (String(record.id) === search.trim()) return true;
  const words = searchWords(search);
  if (!words.length) return false;
  const tokens = searchTokens(record);
  const email = record.emailAddress ? fold(record.emailAddress) : '';
  return words.every((word) =>
    isAddressWord(word) ? email.startsWith(word) : tokens.some((token) => token.startsWith(word)),
  );
}
