/**
 * Attendees' names: the one list the tests' factories (tickets.ts) and the scale seed
 * (bin/seed/scale-event.ts) take them from. The n-th attendee's first name cycles through
 * the first names, its last name through the last names seven at a time. The factories cycle
 * through the first 16 and 10 (what the tests' fixtures were written against), the scale
 * seed through all 18 and 12 (its bench rows search a last name one attendee in 12 holds).
 */
export const FIRST_NAMES = [
  'Ada',
  'Bea',
  'Cal',
  'Dev',
  'Eli',
  'Fay',
  'Gus',
  'Hana',
  'Ivo',
  'Jun',
  'Kai',
  'Lea',
  'Mo',
  'Nia',
  'Oli',
  'Pia',
  'Quin',
  'Rui',
] as const;

export const LAST_NAMES = [
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Tanaka',
  'Silva',
  'Novak',
  'Haddad',
  'Kowalski',
  'Reyes',
  'Byrne',
  'Ortiz',
  'Ng',
] as const;

/** How many of each list a sequence cycles through. */
export interface NameCycle {
  first: number;
  last: number;
}

/** The n-th attendee's first and last name. */
export function attendeeName(n: number, cycle: NameCycle = { first: FIRST_NAMES.length, last: LAST_NAMES.length }) {
  return { first: FIRST_NAMES[n % cycle.first]!, last: LAST_NAMES[(n * 7) % cycle.last]! };
}
