import { GENERATION_KEYS, Generations, ValidatedCache } from '@hangar/cache';
import type { DownloadStatsRepository } from '../data/download-stats.repository';

/**
 * Each channel's download counts (release id → total), held in memory while
 * the channel's download generation is unchanged: every release answer
 * carries `download_count`, and a version list must not cost a read per
 * release. The downloads consumer bumps the generation after each batch it
 * counts, so the next answer on any replica shows the new counts.
 */
export class DownloadCounts {
  private readonly cache: ValidatedCache<Map<number, number>>;

  constructor(
    private readonly stats: Pick<DownloadStatsRepository, 'totalsOfChannel'>,
    generations: Generations,
    options: { capacity: number; maxAgeMs: number },
  ) {
    this.cache = new ValidatedCache({ generations, capacity: options.capacity, maxAgeMs: options.maxAgeMs, weigh: (counts) => Math.max(1, counts.size) });
  }

  of(channelId: number): Promise<Map<number, number>> {
    return this.cache.get(String(channelId), [GENERATION_KEYS.channelDownloads(channelId)], async () => {
      const totals = await this.stats.totalsOfChannel(channelId);
      return new Map(totals.map((t) => [t._id, t.total]));
    });
  }
}
