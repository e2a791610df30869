import { FieldErrors, InvalidArgument } from '@hangar/errors';
import type { apps } from '@hangar/proto';
import { compareVersions, versionSortKey } from '@hangar/versions';
import type { ReleaseDocument } from '../data/release.model';
import { compareBytes } from './channel-releases';
import type { ReleasesDeps } from './deps';

export interface UpdateCheckQuery {
  channelKey: string;
  bundleId: string;
  releaseVersion: string;
  buildVersion: string;
  releaseHash: string;
}

export interface UpdateCheckAnswer {
  context: apps.ChannelContext;
  /** The build to install, when there is one. */
  release?: ReleaseDocument;
  mandatory: boolean;
  hashMatched: boolean;
}

const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

/**
 * What an installed app asks on start: is there a newer build of me in this
 * channel, and must I install it? "Newer" is what `latest` means (PRODUCT §4:
 * release version first, then build, so a build number reset by a new release
 * version still counts as newer). A release_hash equal to the newest build's
 * package says the app is that build (nothing to do, whatever its numbers
 * say); a different one with the same numbers says a rebuilt package replaced
 * it. Mandatory: a mandatory build lies between the installed one and the
 * newest, or the installed release version is below the channel's
 * min_supported_version. Everything is read from memory (the channel and its
 * releases, kept while their generations are unchanged): polling costs no
 * database read while nothing changed.
 */
export async function checkForUpdate(deps: ReleasesDeps, q: UpdateCheckQuery): Promise<UpdateCheckAnswer> {
  const entry: FieldErrors = {};
  if (!q.channelKey.trim()) entry.channel_key = ["can't be blank"];
  if (!q.bundleId.trim()) entry.bundle_id = ["can't be blank"];
  if (!q.releaseVersion.trim()) entry.release_version = ["can't be blank"];
  if (!q.buildVersion.trim()) entry.build_version = ["can't be blank"];
  if (q.releaseHash !== '' && !SHA256_HEX.test(q.releaseHash)) entry.release_hash = ['must be a SHA-256: 64 hexadecimal digits'];
  if (Object.keys(entry).length) throw new InvalidArgument('Give channel_key, bundle_id, release_version and build_version (release_hash optional)', entry);

  const context = await deps.apps.resolveChannel({ channelKey: q.channelKey.trim(), channelId: 0 });
  const bundleId = q.bundleId.trim();
  const releaseVersion = q.releaseVersion.trim();
  const installedKey = versionSortKey(releaseVersion, q.buildVersion.trim());
  const hash = q.releaseHash.toLowerCase();

  const builds = (await deps.channelReleases.live(context.channel!.id)).filter((r) => r.bundleId === bundleId);
  // Newest version first, then newest upload: the order of `latest`.
  const newest = [...builds].sort((a, b) => compareBytes(b.versionKey, a.versionKey) || b._id - a._id)[0];
  const hashMatched = hash !== '' && builds.some((r) => r.sha256 === hash);
  if (!newest || (hash !== '' && newest.sha256 === hash)) return { context, mandatory: false, hashMatched };

  const order = compareBytes(newest.versionKey, installedKey);
  const rebuilt = order === 0 && hash !== '' && newest.sha256 !== '' && newest.sha256 !== hash;
  if (order < 0 || (order === 0 && !rebuilt)) return { context, mandatory: false, hashMatched };

  const minimum = context.channel!.minSupportedVersion;
  const belowMinimum = minimum !== '' && compareVersions(releaseVersion, minimum) < 0;
  const mandatoryBetween = builds.some((r) => r.mandatory && (compareBytes(r.versionKey, installedKey) > 0 || r._id === newest._id));
  return { context, release: newest, mandatory: belowMinimum || mandatoryBetween, hashMatched };
}
