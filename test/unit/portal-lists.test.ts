import { describe, expect, it } from 'vitest';
import { eventSearchBuckets, eventSearchKey } from '#shared/portal/domain/portal-lists';

describe('the event search index (shared/portal/domain/portal-lists.ts)', () => {
  it("groups an event's folded words of 3+ characters by their first 3 characters", () => {
    const buckets = eventSearchBuckets({
      title: 'Zürich Marathon',
      description: 'Marathons and a 5K',
      venue: 'Seebecken',
      venueAddress: 'Utoquai 1',
    });
    expect(Object.fromEntries(buckets)).toEqual({
      and: ['and'],
      mar: ['marathon', 'marathons'],
      see: ['seebecken'],
      uto: ['utoquai'],
      zur: ['zurich'],
    });
  });

  it("reads by the search's longest word, or a title word that must start a word of the title", () => {
    expect(eventSearchKey({ search: 'city marathon' })).toEqual({ word: 'marathon', bucket: 'mar' });
    expect(eventSearchKey({ title: 'City Night%' })).toEqual({ word: 'night', bucket: 'nig' });
    // After a `%` the first word may sit inside a title word: only the words after it start one.
    expect(eventSearchKey({ title: '%athon 2026' })).toEqual({ word: '2026', bucket: '202' });
    expect(eventSearchKey({ title: '%athon%' })).toBeUndefined();
    expect(eventSearchKey({ search: '5k' })).toBeUndefined();
    expect(eventSearchKey({ search: 'ab', title: 'Riverside Run' })).toEqual({ word: 'riverside', bucket: 'riv' });
  });
});
