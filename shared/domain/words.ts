/**
 * Words of a text as the searches compare them, pure: the attendee search
 * (shared/lists/search-tokens.ts) and the portal's event search (portal-lists.ts) fold and
 * split alike, so "Émile" is found by "emile" in both.
 */

/** Lower case, accents and other combining marks removed (NFD, then the marks dropped). */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** The folded words of a text: runs of letters and digits. */
export const wordsOf = (text: string | null | undefined): string[] =>
  text
    ? fold(text)
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)
    : [];
