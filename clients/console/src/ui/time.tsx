import { formatTime, relativeTime } from './format';

/** A moment as "2 hours ago", the exact time on hover and for machines (`<time datetime>`). */
export function Time({ iso, prefix = '' }: { iso: string; prefix?: string }) {
  return (
    <time dateTime={iso} title={formatTime(iso)}>
      {prefix}
      {relativeTime(iso)}
    </time>
  );
}
