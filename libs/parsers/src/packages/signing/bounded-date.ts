// A profile or certificate may carry any date (year 0, year 275760, garbage). Only dates a person
// could act on are kept; anything else is left out rather than shown as nonsense or crashing
// toISOString (which throws past year 275760).
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59);

export function boundedIsoDate(value: unknown): string | undefined {
  if (!(value instanceof Date)) return undefined;
  const time = value.getTime();
  if (Number.isNaN(time) || time < EARLIEST || time > LATEST) return undefined;
  return value.toISOString();
}
