/** Bytes as a person reads them. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export const formatTime = (iso: string): string => new Date(iso).toLocaleString();

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "2 hours ago", "in 30 days", "just now": how long from now, in the largest unit that fits. */
export function relativeTime(iso: string, now = Date.now()): string {
  let amount = (new Date(iso).getTime() - now) / 1000;
  if (Math.abs(amount) < 45) return amount <= 0 ? 'just now' : 'in a moment';
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return relative.format(Math.round(amount), 'year');
}

/** A commit's page on the channel's git host, when the channel names one. */
export function commitUrl(gitUrl: string | null | undefined, commit: string): string | undefined {
  if (!gitUrl || !commit || !/^https?:\/\//.test(gitUrl)) return undefined;
  return `${gitUrl.replace(/\.git$/, '').replace(/\/+$/, '')}/commit/${encodeURIComponent(commit)}`;
}

/** "Chrome 131 on Linux" out of a User-Agent string; the string itself when it names no browser we know. */
export function describeUserAgent(ua: string): string {
  if (!ua) return 'Unknown browser';
  const browser =
    match(ua, /Edg(?:e|A|iOS)?\/(\d+)/, 'Edge') ??
    match(ua, /OPR\/(\d+)/, 'Opera') ??
    match(ua, /(?:Firefox|FxiOS)\/(\d+)/, 'Firefox') ??
    match(ua, /(?:HeadlessChrome|Chrome|CriOS)\/(\d+)/, 'Chrome') ??
    match(ua, /Version\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//, 'Safari') ??
    match(ua, /^curl\/(\d+)/, 'curl') ??
    match(ua, /^hangar\/(\S+)/, 'hangar CLI');
  const system = /iPhone|iPad|iPod/.test(ua) ? 'iOS' : /Android/.test(ua) ? 'Android' : /Windows/.test(ua) ? 'Windows' : /Mac OS X|Macintosh/.test(ua) ? 'macOS' : /CrOS/.test(ua) ? 'ChromeOS' : /Linux|X11/.test(ua) ? 'Linux' : undefined;
  if (!browser) return ua.length > 60 ? `${ua.slice(0, 57)}…` : ua;
  return system ? `${browser} on ${system}` : browser;
}

function match(ua: string, pattern: RegExp, name: string): string | undefined {
  const found = pattern.exec(ua);
  return found ? `${name} ${found[1]}` : undefined;
}
