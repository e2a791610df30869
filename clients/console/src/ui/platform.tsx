/** The platform of a build, as a small coloured badge with its mark (decorative: the name is the text). */
const MARKS: Record<string, string> = {
  iOS: 'M11 2.5c.6-.8 1-1.8.9-2.5-.9 0-1.9.6-2.5 1.3-.5.6-1 1.6-.9 2.5 1 .1 1.9-.5 2.5-1.3zm2.6 8.6c-.4.9-.6 1.3-1.1 2.1-.7 1.1-1.7 2.4-2.9 2.4-1.1 0-1.4-.7-2.8-.7s-1.8.7-2.9.7C2.7 15.6 1.8 14.4 1 13.3-.9 10.4-1.1 7 .1 5.3.9 4 2.2 3.3 3.5 3.3c1.3 0 2.1.7 3.2.7 1 0 1.7-.7 3.2-.7 1.1 0 2.3.6 3.1 1.7-2.7 1.5-2.3 5.4.6 6.1z',
  Android: 'M3 6h10v6.5a1 1 0 0 1-1 1h-1V16H9v-2.5H7V16H5v-2.5H4a1 1 0 0 1-1-1zM1.5 6A1 1 0 0 1 2.5 7v4a1 1 0 0 1-2 0V7a1 1 0 0 1 1-1zm13 0a1 1 0 0 1 1 1v4a1 1 0 0 1-2 0V7a1 1 0 0 1 1-1zM3 5a5 5 0 0 1 10 0zm2-3L4 .5M11 2l1-1.5',
  macOS: 'M1 2h14v9H1zM5 14h6v1H5zM7 11h2v3H7z',
  Windows: 'M0 2.2 6.5 1.3v6.2H0zm7.3-1 8.7-1.2v7.5H7.3zM0 8.3h6.5v6.3L0 13.7zm7.3 0H16V16l-8.7-1.2z',
  Linux: 'M8 1c1.7 0 2.6 1.4 2.6 3.2 0 1.2.7 2.2 1.4 3.3.8 1.2 1.6 2.7 1.6 4.4 0 .7.8.9.8 1.6 0 .9-1.5 1.2-2.5 1.5H4.1c-1-.3-2.5-.6-2.5-1.5 0-.7.8-.9.8-1.6 0-1.7.8-3.2 1.6-4.4.7-1.1 1.4-2.1 1.4-3.3C5.4 2.4 6.3 1 8 1z',
};

export function PlatformBadge({ platform }: { platform: string }) {
  const mark = MARKS[platform];
  return (
    <span class={`badge platform-${platform.toLowerCase()}`}>
      {mark && (
        <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
          <path d={mark} fill="currentColor" />
        </svg>
      )}
      {platform}
    </span>
  );
}

/** The platform a channel's device type belongs to ("iPhone" → iOS). */
export function platformOfDeviceType(deviceType: string): string {
  const d = deviceType.toLowerCase();
  if (['ios', 'iphone', 'ipad', 'universal', 'tvos', 'watchos'].includes(d)) return 'iOS';
  if (['android', 'phone', 'tablet', 'tv', 'watch', 'wear', 'automotive'].includes(d)) return 'Android';
  if (d === 'macos' || d === 'mac') return 'macOS';
  if (d === 'windows') return 'Windows';
  if (d === 'linux') return 'Linux';
  return deviceType;
}
