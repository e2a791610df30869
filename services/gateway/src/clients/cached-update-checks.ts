import { GENERATION_KEYS, Generations, ValidatedCache } from '@hangar/cache';
import type { releases } from '@hangar/proto';
import { RevalidatedBody, revalidatedBody } from '../http/revalidated';
import type { ServiceClients } from './service-clients';

type ReleasesClient = ServiceClients['releases'];
type UpdateCheckQuery = releases.CheckForUpdateRequest;

/** How one answer is shown: the caller's base URL and time zone are part of its bytes. */
export interface Presentation {
  baseUrl: string;
  timeZone: string | undefined;
  present(answer: releases.UpdateCheck): unknown;
}

const MAX_KNOWN_CHANNELS = 100_000;

/**
 * In-app update checks answered by the gateway from memory while nothing they
 * depend on changed: the channel (any apps write bumps `apps`: its minimum
 * supported version, a rotated key), its releases and its download counts
 * (the Release shape carries `download_count`). Every app polls this on each
 * start, so the common answer — nothing new — costs a generation read shared
 * by concurrent polls (libs/cache coalesced-reads.ts), no gRPC call and no
 * rendering. Exact like every validated cache: the releases service bumps a
 * channel's generation before it answers the write.
 *
 * The generation keys name the channel by id, which only an answer tells: a
 * channel key's first check goes to the releases service and teaches its id.
 * Refusals (unknown key, bad input) are never kept.
 */
export class CachedUpdateChecks {
  private readonly answers: ValidatedCache<{ body: RevalidatedBody; channelId: number }>;
  private readonly channelIdOf = new Map<string, number>();

  constructor(
    private readonly releases: Pick<ReleasesClient, 'checkForUpdate'>,
    generations: Generations,
    options: { capacity: number; maxAgeMs: number },
  ) {
    this.answers = new ValidatedCache({ generations, ...options });
  }

  async answer(query: UpdateCheckQuery, view: Presentation): Promise<RevalidatedBody> {
    const load = async () => {
      const answer = await this.releases.checkForUpdate(query);
      const channelId = answer.context?.channel?.id ?? 0;
      this.learn(query.channelKey, channelId);
      return { body: revalidatedBody(view.present(answer)), channelId };
    };
    const channelId = this.channelIdOf.get(query.channelKey);
    if (channelId === undefined) return (await load()).body;
    const key = keyOf(channelId, query, view);
    const dependsOn = [GENERATION_KEYS.apps, GENERATION_KEYS.channelReleases(channelId), GENERATION_KEYS.channelDownloads(channelId)];
    const cached = await this.answers.get(key, dependsOn, load);
    // The key now names another channel (the apps generation moved, so this was a
    // load): its answer was stamped with the old channel's generations — not kept.
    if (cached.channelId !== channelId) this.answers.delete(key);
    return cached.body;
  }

  /**
   * Whether this exact check was answered before and its answer is still held (current or
   * not: `answer` checks): what update-check.fast-path.ts serves without express.
   */
  holds(query: UpdateCheckQuery, view: Pick<Presentation, 'baseUrl' | 'timeZone'>): boolean {
    const channelId = this.channelIdOf.get(query.channelKey);
    return channelId !== undefined && this.answers.holds(keyOf(channelId, query, view));
  }

  private learn(channelKey: string, channelId: number): void {
    if (!channelId) return;
    if (this.channelIdOf.size >= MAX_KNOWN_CHANNELS) this.channelIdOf.clear();
    this.channelIdOf.set(channelKey, channelId);
  }
}

const keyOf = (channelId: number, query: UpdateCheckQuery, view: Pick<Presentation, 'baseUrl' | 'timeZone'>): string =>
  [channelId, query.channelKey, query.bundleId, query.releaseVersion, query.buildVersion, query.releaseHash, view.baseUrl, view.timeZone ?? ''].join('\u0000');
