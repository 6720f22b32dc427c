import { describe, expect, it } from 'vitest';
import {
  boughtBefore,
  dayAt,
  dayCounter,
  dayOf,
  hourOf,
  justAfter,
  minuteAt,
  minuteCounter,
  minuteStart,
  monthOf,
  type HourCount,
  type MonthCount,
} from '#shared/domain/purchase-counts';

/**
 * The purchase counts against a recount: in random sales (spread over months, bunched into
 * hours and single minutes, some at the same instant), the tickets bought before any
 * instant, and the day and minute of any position, equal what sorting the times says.
 */

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const START = Date.parse('2025-12-30T22:00:00.000Z');

function sale(seed: number): string[] {
  const next = random(seed);
  const times: string[] = [];
  let at = START;
  for (let i = 0; i < 400; i++) {
    // Mostly a few minutes apart, sometimes days or weeks, sometimes the same instant (an order's tickets).
    const roll = next();
    at +=
      roll < 0.2
        ? 0
        : roll < 0.7
          ? Math.floor(next() * 120_000)
          : roll < 0.95
            ? Math.floor(next() * 86_400_000)
            : 30 * 86_400_000;
    times.push(new Date(at).toISOString());
  }
  return times.sort();
}

function countsOf(times: readonly string[]): { months: MonthCount[]; hours: Map<string, HourCount[]> } {
  const months = new Map<string, { total: number; days: Map<string, number> }>();
  const hours = new Map<string, { total: number; minutes: Map<string, number> }>();
  const bump = (counts: Map<string, number>, name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const time of times) {
    const month = months.get(monthOf(time)) ?? { total: 0, days: new Map() };
    month.total += 1;
    bump(month.days, dayCounter(time));
    months.set(monthOf(time), month);
    const hour = hours.get(hourOf(time)) ?? { total: 0, minutes: new Map() };
    hour.total += 1;
    bump(hour.minutes, minuteCounter(time));
    hours.set(hourOf(time), hour);
  }
  const byDay = new Map<string, HourCount[]>();
  // Stored order is not relied on: the day's hours shuffled.
  for (const [hour, count] of [...hours].reverse()) {
    const day = hour.slice(0, 10);
    byDay.set(day, [...(byDay.get(day) ?? []), { hour, ...count }]);
  }
  return { months: [...months].map(([month, count]) => ({ month, ...count })).reverse(), hours: byDay };
}

const boughtEarlier = (times: readonly string[], instant: string) => times.filter((time) => time < instant).length;

describe('purchase counts', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`sale ${seed}: the tickets bought before any instant equal a recount`, () => {
      const times = sale(seed);
      const { months, hours } = countsOf(times);
      const next = random(seed * 31);
      // Each ticket's instant, just after it, a minute's start, and instants between and around the sales.
      const probes = [
        ...times.flatMap((time) => [time, justAfter(time), minuteStart(time)]),
        ...Array.from({ length: 200 }, () =>
          new Date(
            START - 86_400_000 + Math.floor(next() * (Date.parse(times.at(-1)!) - START + 2 * 86_400_000)),
          ).toISOString(),
        ),
      ];
      for (const instant of probes) {
        const inMinute = times.filter((time) => time >= minuteStart(instant) && time < instant).length;
        expect(boughtBefore(instant, months, hours.get(dayOf(instant)) ?? [], inMinute), instant).toBe(
          boughtEarlier(times, instant),
        );
      }
    });

    it(`sale ${seed}: the day and the minute of every position, and what precedes it in that minute`, () => {
      const times = sale(seed);
      const { months, hours } = countsOf(times);
      times.forEach((time, position) => {
        const day = dayAt(position, months);
        expect(day, `${position}`).toEqual({ day: dayOf(time), before: boughtEarlier(times, `${dayOf(time)}T`) });
        const minute = minuteAt(position, day!.before, hours.get(day!.day)!);
        expect(minute, `${position}`).toEqual({
          start: minuteStart(time),
          skip: position - boughtEarlier(times, minuteStart(time)),
        });
      });
      expect(dayAt(times.length, months)).toBeUndefined();
    });
  }

  it('the instant just after a time is one millisecond on, across a day', () => {
    expect(justAfter('2026-11-26T23:59:59.999Z')).toBe('2026-11-27T00:00:00.000Z');
    expect(minuteStart('2026-11-26T15:04:05.123Z')).toBe('2026-11-26T15:04:00.000Z');
  });
});
