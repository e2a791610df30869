import { GENERATION_KEYS, Generations, ValidatedCache } from '@hangar/cache';
import type { ReleaseDocument } from '../data/release.model';
import type { ReleasesRepository } from '../data/releases.repository';
import { BuildFilter, isEmptyFilter, matchesBuildFilter } from './build-filter';

export type ExactMatch = Partial<Pick<ReleaseDocument, 'bundleId' | 'releaseVersion' | 'buildVersion' | 'gitCommit'>>;

/**
 * The version queries (PRODUCT §4), answered from a channel's live releases
 * held in memory while the channel's generation is unchanged.
 *
 * Why in memory: FerretDB 1.24 cannot push a sort or a limit down to
 * PostgreSQL, so every versions or latest request made it fetch and decode
 * all of the channel's releases (about 0.2 ms each) to return 25; a channel
 * of 5,000 builds cost a second per page. Read once per change instead, every
 * query below is a slice or a scan of a few thousand objects. Exact: every
 * write to a channel's releases bumps its generation before it answers
 * (ReleasesRepository), and the next request on any replica reads again.
 */
export class ChannelReleases {
  private readonly cache: ValidatedCache<ReleaseDocument[]>;
  /** Release id → its channel: a release never moves, so this needs no validation. */
  private readonly channelOf = new Map<number, number>();

  constructor(
    private readonly repository: Pick<ReleasesRepository, 'liveOfChannel' | 'findById'>,
    generations: Generations,
    options: { maxDocuments: number; maxAgeMs: number },
  ) {
    this.cache = new ValidatedCache({ generations, capacity: options.maxDocuments, maxAgeMs: options.maxAgeMs, weigh: (list) => Math.max(1, list.length) });
  }

  /** Newest upload first. */
  live(channelId: number): Promise<ReleaseDocument[]> {
    return this.cache.get(String(channelId), [GENERATION_KEYS.channelReleases(channelId)], () => this.repository.liveOfChannel(channelId));
  }

  /**
   * A live release by id, from its channel's cached releases (the release page,
   * its icon, QR code and manifest all ask for it: an install burst reads it
   * once). A deleted release is absent from the validated list: null.
   */
  async byId(id: number): Promise<ReleaseDocument | null> {
    let channelId = this.channelOf.get(id);
    let fromDatabase: ReleaseDocument | null | undefined;
    if (channelId === undefined) {
      fromDatabase = await this.repository.findById(id);
      if (!fromDatabase) return null;
      channelId = fromDatabase.channelId;
      if (this.channelOf.size >= 100_000) this.channelOf.clear();
      this.channelOf.set(id, channelId);
    }
    const cached = (await this.live(channelId)).find((r) => r._id === id);
    if (cached) return cached;
    // Not in the channel's list: deleted — or the list is older than the release, because the
    // generation bump of its creation did not reach NATS (a KV leader's election: bumpingQuietly
    // retries it in the background) and the old list still validates. The database decides: a
    // release it holds is never answered as missing (a lost new-build webhook was that:
    // tests/e2e/nats-cluster-failover.test.ts).
    return fromDatabase === undefined ? this.repository.findById(id) : fromDatabase;
  }

  async page(channelId: number, skip: number, limit: number, filter: BuildFilter = {}): Promise<{ releases: ReleaseDocument[]; total: number }> {
    const live = await this.live(channelId);
    const all = isEmptyFilter(filter) ? live : live.filter((r) => matchesBuildFilter(r, filter));
    return { releases: all.slice(skip, skip + limit), total: all.length };
  }

  /** Releases whose version sorts after `versionKey`, newest version first (then newest upload). */
  async newerThan(channelId: number, versionKey: string, bundleId: string | undefined, skip: number, limit: number) {
    const newer = (await this.live(channelId))
      .filter((r) => compareBytes(r.versionKey, versionKey) > 0 && (!bundleId || r.bundleId === bundleId))
      .sort((a, b) => compareBytes(b.versionKey, a.versionKey) || b._id - a._id);
    return { releases: newer.slice(skip, skip + limit), total: newer.length };
  }

  /** The newest upload matching every given field exactly. */
  async findExact(channelId: number, match: ExactMatch): Promise<ReleaseDocument | null> {
    const fields = Object.entries(match) as [keyof ExactMatch, string][];
    return (await this.live(channelId)).find((r) => fields.every(([field, value]) => r[field] === value)) ?? null;
  }
}

/**
 * The order MongoDB gives strings (their UTF-8 bytes), not JavaScript's
 * (UTF-16 code units): the two differ once a version holds characters past
 * U+FFFF, and `latest` must agree with what an indexed query would answer.
 */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
