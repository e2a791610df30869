import { InvalidArgument, NotFound, Unauthenticated, Unavailable } from '@hangar/errors';
import type { releases } from '@hangar/proto';
import { randomBase62 } from '@hangar/secrets';
import type { TeardownDocument } from '../data/teardown.model';
import { DAY_MS, dayOf, type TeardownsRepository } from '../data/teardowns.repository';
import type { ReleasesDeps } from './deps';

export interface TeardownDeps {
  teardowns: TeardownsRepository;
  storage: ReleasesDeps['storage'];
  parse: ReleasesDeps['parse'];
  /** TEARDOWN_RETENTION_DAYS. */
  retentionDays: number;
  now?: () => Date;
}

/**
 * Teardown: what the release of this package would show — metadata and signing — without
 * creating one. Only a package Hangar reads is kept (there is nothing to show of another); the
 * uploaded object stays until the result expires, so the file is there for as long as its
 * description. On a refusal the gateway removes the upload.
 */
export async function createTeardown(deps: TeardownDeps, req: releases.CreateTeardownRequest): Promise<TeardownDocument> {
  if (!req.actor?.userId) throw new Unauthenticated();
  if (req.size === 0) throw InvalidArgument.field('file', 'is empty');
  const reply = await deps.parse(req.objectKey);
  if (!reply.ok) {
    if (reply.kind === 'unavailable') throw new Unavailable(reply.message);
    if (reply.kind === 'corrupt') throw InvalidArgument.field('file', `is not a valid package: ${reply.message}`);
    throw InvalidArgument.field('file', `is not a package Hangar can read (${reply.message}). Readable: ipa, apk, aab, zipped .app, dmg, exe, msi, deb, rpm, AppImage`);
  }
  // A teardown shows no icon; the worker stored one anyway (the parse contract always does).
  if (reply.iconKey) await deps.storage.delete(reply.iconKey).catch(() => undefined);
  const parsed = reply.parsed;
  const createdAt = (deps.now ?? (() => new Date()))();
  const expiresAt = new Date(createdAt.getTime() + deps.retentionDays * DAY_MS);
  return deps.teardowns.create({
    _id: randomBase62(24),
    ownerId: req.actor.userId,
    objectKey: req.objectKey,
    fileName: req.fileName,
    size: req.size,
    format: parsed.format,
    platform: parsed.platform,
    deviceType: parsed.deviceType,
    name: parsed.name,
    bundleId: parsed.bundleId,
    releaseVersion: parsed.releaseVersion,
    buildVersion: parsed.buildVersion,
    minOsVersion: parsed.minOsVersion ?? '',
    releaseType: parsed.releaseType ?? '',
    metadataJson: JSON.stringify(parsed.details ?? {}),
    createdAt,
    expiresAt,
    expiresDay: dayOf(expiresAt),
  });
}

/**
 * The uploader's teardown. Anyone else — admins included: a teardown is a private scratch
 * result, not app data — and an expired one get the same NotFound, so ids cannot be probed.
 */
export async function getTeardown(deps: TeardownDeps, req: releases.GetTeardownRequest): Promise<TeardownDocument> {
  if (!req.actor?.userId) throw new Unauthenticated();
  const found = /^[0-9A-Za-z]{1,64}$/.test(req.id) ? await deps.teardowns.findById(req.id) : null;
  const now = (deps.now ?? (() => new Date()))();
  if (!found || found.ownerId !== req.actor.userId || found.expiresAt.getTime() <= now.getTime()) {
    throw new NotFound('Teardown not found');
  }
  return found;
}

export function toTeardown(t: TeardownDocument): releases.Teardown {
  return {
    id: t._id,
    ownerId: t.ownerId,
    fileName: t.fileName,
    size: t.size,
    format: t.format,
    platform: t.platform,
    deviceType: t.deviceType,
    name: t.name,
    bundleId: t.bundleId,
    releaseVersion: t.releaseVersion,
    buildVersion: t.buildVersion,
    minOsVersion: t.minOsVersion,
    releaseType: t.releaseType,
    metadataJson: t.metadataJson,
    createdAtMs: t.createdAt.getTime(),
    expiresAtMs: t.expiresAt.getTime(),
  };
}
