import { describe, expect, it } from 'vitest';
import { randomStream } from '../support/seeded-random.ts';
import {
  boughtBefore,
  dayAt,
  dayCounter,
  dayOf,
  hourOf,
  justAfter,
  mergedBuckets,
  minuteAt,
  minuteCounter,
  minuteOf,
  monthOf,
  secondAt,
  secondCounter,
  secondStart,
  type BucketCount,
} from '#shared/lists/purchase-count-plan';

/**
 * The purchase counts against a recount: in random sales (spread over months, bunched into
 * hours, minutes and seconds, some at the same instant), the tickets bought before any
 * instant, and the day, minute and second of any position, equal what sorting the times says.
 */

/** A sale's generator: one of the run's seeded streams (TEST_SEED=<n> npm test replays a failure). */
const random = (seed: number) => randomStream(`purchase-counts:${seed}`).float;

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

/** The counts a sale's writes keep, each level's buckets in a shuffled order (stored order is not relied on). */
function countsOf(times: readonly string[]) {
  const level = (bucketOf: (time: string) => string, partOf: (time: string) => string) => {
    const buckets = new Map<string, { total: number; parts: Map<string, number> }>();
    for (const time of times) {
      const bucket = buckets.get(bucketOf(time)) ?? { total: 0, parts: new Map<string, number>() };
      bucket.total += 1;
      bucket.parts.set(partOf(time), (bucket.parts.get(partOf(time)) ?? 0) + 1);
      buckets.set(bucketOf(time), bucket);
    }
    return [...buckets].map(([bucket, count]): BucketCount => ({ bucket, ...count })).reverse();
  };
  const hours = level(hourOf, minuteCounter);
  return {
    months: level(monthOf, dayCounter),
    hoursOf: (day: string) => hours.filter(({ bucket }) => bucket.startsWith(`${day}T`)),
    minutes: new Map(level(minuteOf, secondCounter).map((count) => [count.bucket, count])),
  };
}

const boughtEarlier = (times: readonly string[], instant: string) => times.filter((time) => time < instant).length;

describe('purchase counts', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`sale ${seed}: the tickets bought before any instant equal a recount`, () => {
      const times = sale(seed);
      const { months, hoursOf, minutes } = countsOf(times);
      const next = random(seed * 31);
      // Each ticket's instant, just after it, its second's start, and instants between and around the sales.
      const probes = [
        ...times.flatMap((time) => [time, justAfter(time)!, secondStart(time)]),
        ...Array.from({ length: 200 }, () =>
          new Date(
            START - 86_400_000 + Math.floor(next() * (Date.parse(times.at(-1)!) - START + 2 * 86_400_000)),
          ).toISOString(),
        ),
      ];
      for (const instant of probes) {
        const inSecond = times.filter((time) => time >= secondStart(instant) && time < instant).length;
        expect(
          boughtBefore(instant, months, hoursOf(dayOf(instant)), minutes.get(minuteOf(instant)), inSecond),
          instant,
        ).toBe(boughtEarlier(times, instant));
      }
    });

    it(`sale ${seed}: the day, minute and second of every position, and what precedes each`, () => {
      const times = sale(seed);
      const { months, hoursOf, minutes } = countsOf(times);
      times.forEach((time, position) => {
        const day = dayAt(position, months);
        expect(day, `${position}`).toEqual({ part: dayOf(time), before: boughtEarlier(times, `${dayOf(time)}T`) });
        const minute = minuteAt(position, day!.before, hoursOf(day!.part));
        expect(minute, `${position}`).toEqual({
          part: minuteOf(time),
          before: boughtEarlier(times, `${minuteOf(time)}:`),
        });
        const second = secondAt(position, minute!.before, minutes.get(minute!.part)!);
        expect(second, `${position}`).toEqual({
          part: time.slice(0, 19),
          before: boughtEarlier(times, secondStart(time)),
        });
      });
      expect(dayAt(times.length, months)).toBeUndefined();
    });
  }

  for (const seed of [1, 2, 3])
    it(`sale ${seed}: the counts kept in 16 shards (each ticket in one), merged, are the counts kept whole`, () => {
      const times = sale(seed);
      const shards = Array.from({ length: 16 }, (_, shard) => countsOf(times.filter((_, n) => n % 16 === shard)));
      const whole = countsOf(times);
      const sorted = (counts: BucketCount[]) => [...counts].sort((a, b) => (a.bucket < b.bucket ? -1 : 1));
      expect(mergedBuckets(shards.map(({ months }) => months))).toEqual(sorted(whole.months));
      const day = dayOf(times[200]!);
      expect(mergedBuckets(shards.map(({ hoursOf }) => hoursOf(day)))).toEqual(sorted(whole.hoursOf(day)));
      const minute = minuteOf(times[200]!);
      const minutes = shards.flatMap(({ minutes }) => minutes.get(minute) ?? []);
      expect(mergedBuckets([minutes])).toEqual([whole.minutes.get(minute)]);
    });

  it('the instant just after a time is one millisecond on, across a day', () => {
    expect(justAfter('2026-11-26T23:59:59.999Z')).toBe('2026-11-27T00:00:00.000Z');
    // Past the year 9999 instants no longer sort as strings: no bound.
    expect(justAfter('9999-12-31T23:59:59.999Z')).toBeUndefined();
    expect(secondStart('2026-11-26T15:04:05.123Z')).toBe('2026-11-26T15:04:05.000Z');
  });
});
