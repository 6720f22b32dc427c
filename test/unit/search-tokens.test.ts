import { describe, expect, it } from 'vitest';
import { indexWord, matchesSearch, searchKeyOf, searchTokens, searchWords } from '#shared/lists/search-tokens';
import type { TicketRecord } from '#shared/tickets/domain/ticket';

const ticket = (fields: Partial<TicketRecord>): TicketRecord =>
  ({
    id: 4711,
    partyMember: 'Zoë',
    partyMemberLastName: 'Ångström-Byrne',
    emailAddress: 'Zoe.Angstrom+race@Example.test',
    barcode: 'AB12-CD34',
    bibNumber: 'B-7781',
    deleted: 0,
    ...fields,
  }) as TicketRecord;

describe('search tokens', () => {
  it('are the folded words of the names, the email local part (its words and the whole of it), the barcode and the bib', () => {
    expect(searchTokens(ticket({}))).toEqual([
      'zoe',
      'angstrom',
      'byrne',
      'zoe.angstrom+race',
      'race',
      'ab12',
      'cd34',
      '7781',
    ]);
  });

  it('leave out a local part a sort key cannot carry, one-letter words, and everything of a deleted ticket', () => {
    expect(searchTokens(ticket({ emailAddress: "o'neil@example.test", bibNumber: null, barcode: 'X' }))).toEqual([
      'zoe',
      'angstrom',
      'byrne',
      'neil',
    ]);
    expect(searchTokens(ticket({ deleted: 1 }))).toEqual([]);
  });
});

describe('a search', () => {
  it('reads the index by its longest word; an address word (with @ or .) by its whole local part', () => {
    expect(searchWords('Zo Ångström')).toEqual(['angstrom', 'zo']);
    expect(indexWord('zoe.angs')).toBe('zoe.angs');
    expect(indexWord('zoe.angstrom+race@exa')).toBe('zoe.angstrom+race');
    expect(indexWord("o'neil@example")).toBe('neil');
    expect(searchWords('a b')).toEqual([]);
    // Up to its @, an address names one whole local part: one token, not every token it starts.
    expect(searchKeyOf('zoe.angstrom+race@')).toEqual({ word: 'zoe.angstrom+race', exact: true });
    expect(searchKeyOf('zoe.angs')).toEqual({ word: 'zoe.angs', exact: false });
    expect(searchKeyOf("o'neil@example")).toEqual({ word: 'neil', exact: false });
  });

  it('matches when every word starts a token, an address word starts the email, or the search is the id', () => {
    const zoe = ticket({});
    expect(matchesSearch(zoe, 'ZOE byr')).toBe(true);
    expect(matchesSearch(zoe, 'angstrom 778')).toBe(true);
    expect(matchesSearch(zoe, 'zoe.angstrom+r')).toBe(true);
    expect(matchesSearch(zoe, 'zoe.angstrom+race@example.test')).toBe(true);
    expect(matchesSearch(zoe, 'angstrom@')).toBe(false);
    expect(matchesSearch(zoe, 'zoe smith')).toBe(false);
    expect(matchesSearch(zoe, 'ström')).toBe(false);
    expect(matchesSearch(zoe, '4711')).toBe(true);
  });
});
