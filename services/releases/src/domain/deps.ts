import type { ServiceClient } from '@hangar/grpc';
import type { apps } from '@hangar/proto';
import type { ObjectStorage } from '@hangar/storage';
import type { DownloadStatsRepository } from '../data/download-stats.repository';
import type { ReleasesRepository } from '../data/releases.repository';
import type { ParseReply } from '@hangar/parse-jobs';
import type { ChannelReleases } from './channel-releases';
import type { DownloadCounts } from './download-counts';

export type AppsClient = ServiceClient<typeof apps.AppsServiceDefinition>;

export interface ReleasesDeps {
  releases: ReleasesRepository;
  /** The version queries, from each channel's live releases kept in memory while unchanged. */
  channelReleases: ChannelReleases;
  /** Download counts, written by the downloads consumer. */
  downloadStats: DownloadStatsRepository;
  /** Each channel's download counts, kept in memory while unchanged. */
  downloadCounts: DownloadCounts;
  apps: AppsClient;
  storage: ObjectStorage;
  /** Sends an uploaded object to the parsing workers and waits for the answer. */
  parse: (objectKey: string) => Promise<ParseReply>;
  /** Called after a write that recorded events, so they go out at once. */
  onEventsRecorded: () => void;
}

export interface Actor {
  userId: number;
  role: string;
  /** Set when the caller's token is limited to some apps; the apps service enforces it. */
  appLimit?: { appIds: number[] };
}
