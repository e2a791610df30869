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

/** A commit's page on the channel's git host, when the channel names one. */
export function commitUrl(gitUrl: string | null | undefined, commit: string): string | undefined {
  if (!gitUrl || !commit || !/^https?:\/\//.test(gitUrl)) return undefined;
  return `${gitUrl.replace(/\.git$/, '').replace(/\/+$/, '')}/commit/${encodeURIComponent(commit)}`;
}
