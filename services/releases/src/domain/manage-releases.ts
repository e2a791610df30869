import { InvalidArgument, NotFound, Unauthenticated } from '@hangar/errors';
import { createEnvelope } from '@hangar/events';
import type { apps, releases } from '@hangar/proto';
import type { ReleaseDocument } from '../data/release.model';
import { parseChangelog } from './changelog';
import { parseCustomFields } from './custom-fields';
import type { Actor, ReleasesDeps } from './deps';
import { checkFieldLengths, normalizeBranch } from './upload-fields';
import { versionSortKey } from '@hangar/versions';

function requireActor(actor: Actor | undefined): Actor {
  if (!actor?.userId) throw new Unauthenticated();
  return actor;
}

async function found(deps: ReleasesDeps, id: number): Promise<ReleaseDocument> {
  const release = await deps.channelReleases.byId(id);
  if (!release) throw new NotFound(`Release ${id} not found`);
  return release;
}

export async function getRelease(deps: ReleasesDeps, id: number): Promise<{ release: ReleaseDocument; context: apps.ChannelContext }> {
  const release = await found(deps, id);
  const context = await deps.apps.resolveChannel({ channelKey: '', channelId: release.channelId });
  return { release, context };
}

/** `true`/`false` as forms and JSON send them (also 1/0, yes/no); anything else is 422. */
export function parseFlag(field: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(v)) return true;
  if (['false', '0', 'no'].includes(v)) return false;
  throw InvalidArgument.field(field, 'must be true or false');
}

/** Developers of the app may correct what CI sent; the package itself does not change. */
export async function updateRelease(deps: ReleasesDeps, req: releases.UpdateReleaseRequest): Promise<{ release: ReleaseDocument; context: apps.ChannelContext }> {
  const actor = requireActor(req.actor);
  checkFieldLengths({
    changelog: req.changelog, custom_fields: req.customFields, release_version: req.releaseVersion, build_version: req.buildVersion,
    branch: req.branch, git_commit: req.gitCommit, ci_url: req.ciUrl, release_type: req.releaseType,
  });
  const current = await found(deps, req.id);
  await deps.apps.checkPermission({ actor, appId: current.appId, action: 'releases.edit' });
  const changes: Partial<ReleaseDocument> = {};
  if (req.changelog !== undefined) changes.changelog = parseChangelog(req.changelog);
  if (req.customFields !== undefined) changes.customFields = parseCustomFields(req.customFields);
  if (req.releaseVersion !== undefined) changes.releaseVersion = req.releaseVersion.trim();
  if (req.buildVersion !== undefined) changes.buildVersion = req.buildVersion.trim();
  if (req.branch !== undefined) changes.branch = normalizeBranch(req.branch);
  if (req.gitCommit !== undefined) changes.gitCommit = req.gitCommit.trim();
  if (req.ciUrl !== undefined) changes.ciUrl = req.ciUrl.trim();
  if (req.releaseType !== undefined) changes.releaseType = req.releaseType.trim();
  if (req.mandatory !== undefined) changes.mandatory = parseFlag('mandatory', req.mandatory);
  if (changes.releaseVersion !== undefined || changes.buildVersion !== undefined) {
    changes.versionKey = versionSortKey(changes.releaseVersion ?? current.releaseVersion, changes.buildVersion ?? current.buildVersion);
  }
  const release = await deps.releases.update(req.id, changes);
  if (!release) throw new NotFound(`Release ${req.id} not found`);
  const context = await deps.apps.resolveChannel({ channelKey: '', channelId: release.channelId });
  return { release, context };
}

/**
 * Tombstones the release with its `release.deleted` event in one write; the
 * files consumer then removes its package and icon (retrying until storage
 * answers) and finally the tombstone.
 */
export async function deleteRelease(deps: ReleasesDeps, actorIn: Actor | undefined, id: number): Promise<void> {
  const actor = requireActor(actorIn);
  const release = await found(deps, id);
  await deps.apps.checkPermission({ actor, appId: release.appId, action: 'releases.edit' });
  const event = createEnvelope(
    'release.deleted',
    { release_id: id, app_id: release.appId, scheme_id: release.schemeId, channel_id: release.channelId },
    'releases',
  );
  if (!(await deps.releases.markDeleted(release, event))) throw new NotFound(`Release ${id} not found`);
  deps.onEventsRecorded();
}

/** A short-lived URL for the package or its icon. */
export async function getDownload(deps: ReleasesDeps, req: releases.GetDownloadRequest): Promise<releases.Download> {
  const release = await found(deps, req.releaseId);
  const expires = Math.min(Math.max(req.expiresInSeconds || 300, 10), 7 * 24 * 3600);
  if (req.kind === 'icon') {
    if (!release.iconKey) throw new NotFound(`Release ${release._id} has no icon`);
    const url = await deps.storage.presignedGetUrl(release.iconKey, expires, { contentType: 'image/png' });
    return { url, objectKey: release.iconKey, fileName: 'icon.png', size: 0, contentType: 'image/png' };
  }
  const fileName = downloadFileName(release);
  const url = await deps.storage.presignedGetUrl(release.objectKey, expires, { fileName });
  return { url, objectKey: release.objectKey, fileName, size: release.size, contentType: 'application/octet-stream' };
}

/** `<app>-<version>-<build>.<ext>`, with characters browsers and shells dislike replaced. */
export function downloadFileName(release: Pick<ReleaseDocument, 'appName' | 'releaseVersion' | 'buildVersion' | 'fileExtension'>): string {
  const safe = (s: string) => s.replace(/[^\p{L}\p{N}._-]+/gu, '_').replace(/^_+|_+$/g, '') || 'app';
  const parts = [safe(release.appName), release.releaseVersion && safe(release.releaseVersion), release.buildVersion && safe(release.buildVersion)].filter(Boolean);
  return `${parts.join('-')}.${release.fileExtension || 'bin'}`;
}
