/**
 * Formatters by time zone. Building an Intl.DateTimeFormat costs far more
 * than using one (it was most of the gateway's own CPU when listing
 * releases: several timestamps per release, a formatter each). A zone the
 * runtime does not know throws before it is stored; zone names match without
 * regard to case, so the map is also capped rather than trusted to stay at
 * the size of the zone list.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 1_000;

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
      timeZoneName: 'longOffset',
    });
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * ISO 8601 with milliseconds and the offset of the given time zone, e.g.
 * `2026-11-22T18:04:05.123+08:00` (PRODUCT §10: the token user's zone, UTC
 * without one).
 */
export function formatTimestamp(epochMs: number, timeZone = 'Etc/UTC'): string {
  const date = new Date(epochMs);
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  // longOffset is "GMT" for zero and "GMT+08:00" otherwise.
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).replace('GMT', '');
  const ms = String(date.getUTCMilliseconds()).padStart(3, '0');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${ms}${offset}`;
}
