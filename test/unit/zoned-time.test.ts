import { describe, expect, it } from 'vitest';
import { formatInTimeZone } from '#shared/domain/zoned-time';

const at = (iso: string) => new Date(iso);

describe('formatInTimeZone', () => {
  it('writes a summer instant in Berlin with +02:00', () => {
    expect(formatInTimeZone(at('2026-06-01T07:30:00Z'), 'Europe/Berlin')).toBe('2026-06-01T09:30:00+02:00');
  });

  it('writes a winter instant in Berlin with +01:00', () => {
    expect(formatInTimeZone(at('2026-01-15T12:00:00Z'), 'Europe/Berlin')).toBe('2026-01-15T13:00:00+01:00');
  });

  it('moves from +01:00 to +02:00 across the spring-forward second in Berlin', () => {
    expect(formatInTimeZone(at('2026-03-29T00:59:59Z'), 'Europe/Berlin')).toBe('2026-03-29T01:59:59+01:00');
    expect(formatInTimeZone(at('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toBe('2026-03-29T03:00:00+02:00');
  });

  it('tells the two 01:30s of the New York fall-back hour apart by their offsets', () => {
    expect(formatInTimeZone(at('2026-11-01T05:30:00Z'), 'America/New_York')).toBe('2026-11-01T01:30:00-04:00');
    expect(formatInTimeZone(at('2026-11-01T06:30:00Z'), 'America/New_York')).toBe('2026-11-01T01:30:00-05:00');
  });

  it('writes half-hour offsets on both sides of UTC', () => {
    expect(formatInTimeZone(at('2026-06-01T00:00:00Z'), 'Asia/Kolkata')).toBe('2026-06-01T05:30:00+05:30');
    expect(formatInTimeZone(at('2026-01-10T12:00:00Z'), 'America/St_Johns')).toBe('2026-01-10T08:30:00-03:30');
  });

  it('crosses the date line into the next day', () => {
    expect(formatInTimeZone(at('2026-12-31T23:00:00Z'), 'Pacific/Auckland')).toBe('2027-01-01T12:00:00+13:00');
  });

  it('writes midnight as 00, not 24', () => {
    expect(formatInTimeZone(at('2026-06-01T22:00:00Z'), 'Europe/Berlin')).toBe('2026-06-02T00:00:00+02:00');
  });

  it('writes UTC as +00:00 and drops milliseconds', () => {
    expect(formatInTimeZone(at('2026-06-01T07:30:00.999Z'), 'UTC')).toBe('2026-06-01T07:30:00+00:00');
  });

  it('falls back to UTC for a zone it does not know', () => {
    expect(formatInTimeZone(at('2026-06-01T07:30:00Z'), 'Mars/Olympus_Mons')).toBe('2026-06-01T07:30:00+00:00');
  });
});
