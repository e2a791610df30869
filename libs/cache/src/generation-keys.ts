/**
 * The generation keys services share (see generations.ts): who bumps each one,
 * and what a cached copy that depends on it holds.
 */
export const GENERATION_KEYS = {
  /** Bumped by the users service after any user or token write; token → user caches depend on it. */
  users: 'users',
  /** Bumped by the apps service after any write to apps, schemes, channels or collaborators. */
  apps: 'apps',
  /** Bumped by the releases service after any release of the channel is created, edited or deleted. */
  channelReleases: (channelId: number) => `releases.${channelId}`,
  /** Bumped by the releases service after it counted downloads of a release of the channel. */
  channelDownloads: (channelId: number) => `downloads.${channelId}`,
} as const;
