/**
 * An instant written in an IANA time zone as ISO 8601 with that zone's offset at that
 * instant (`2026-06-01T09:30:00+02:00`), the way an event's organiser reads it. Intl
 * knows the zone rules (DST included); no date library.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function knownZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

const pad = (value: number, width = 2) => String(Math.abs(value)).padStart(width, '0');

/**
 * `instant` in `timeZone` with its offset; whole seconds (milliseconds dropped). An
 * unknown zone falls back to UTC (`+00:00`) rather than failing a read.
 */
export function formatInTimeZone(instant: Date, timeZone: string): string {
  const formatter = knownZone(timeZone) ? formatterFor(timeZone) : formatterFor('UTC');
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  // The wall-clock time read as if it were UTC, minus the real instant, is the offset.
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const offsetMinutes = Math.round((wallAsUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = `${sign}${pad(Math.trunc(offsetMinutes / 60))}:${pad(offsetMinutes % 60)}`;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${offset}`;
}
