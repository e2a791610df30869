import { FailedPrecondition, InvalidArgument, Unauthenticated, Unavailable, isRefusal, withArticle } from '@hangar/errors';
import { createEnvelope } from '@hangar/events';
import type { apps, releases } from '@hangar/proto';
import type { ReleaseDocument } from '../data/release.model';
import type { NewRelease } from '../data/releases.repository';
import type { ParsedPackageFields } from '@hangar/parse-jobs';
import { matchesBundleIdRule } from './bundle-id-rule';
import { parseChangelog } from './changelog';
import { parseCustomFields } from './custom-fields';
import type { ReleasesDeps } from './deps';
import { EXTENSION_OF_FORMAT, PLATFORM_OF_DEVICE_TYPE, deviceTypeOf, extensionFromFileName } from './platforms';
import { parseFlag } from './manage-releases';
import { checkFieldLengths, normalizeBranch, normalizeSource } from './upload-fields';
import { versionSortKey } from '@hangar/versions';

export interface CreatedRelease {
  release: ReleaseDocument;
  context: apps.ChannelContext;
}

/** What the upload says about the package, whether or not we could parse it. */
interface PackageFacts {
  parsed?: ParsedPackageFields;
  iconKey?: string;
}

/**
 * The upload story: check the form, find the channel and the right to upload
 * to it, have a worker read the package, check it fits the channel, then
 * record the release and its `release.created` event in one write. The
 * uploaded object was stored by the gateway; if this is refused, the gateway
 * removes it, and the icon stored here is removed here (when the outcome is
 * unknown, both are left to the orphan janitor).
 */
export async function createRelease(deps: ReleasesDeps, req: releases.CreateReleaseRequest): Promise<CreatedRelease> {
  const actor = req.actor;
  if (!actor?.userId) throw new Unauthenticated();
  checkFieldLengths({
    name: req.name, release_type: req.releaseType, source: req.source, branch: req.branch, git_commit: req.gitCommit, ci_url: req.ciUrl,
    password: req.password, release_version: req.releaseVersion, build_version: req.buildVersion, changelog: req.changelog, custom_fields: req.customFields,
  });
  const changelog = parseChangelog(req.changelog);
  const customFields = parseCustomFields(req.customFields);
  // Checked with the other fields, before anything is read or stored: `notify=false` keeps testers' e-mail quiet.
  const notify = req.notify.trim() === '' ? true : parseFlag('notify', req.notify);

  let context: apps.ChannelContext | undefined;
  if (req.channelKey) {
    context = await deps.apps.resolveChannel({ channelKey: req.channelKey, channelId: 0 });
    await deps.apps.checkPermission({ actor, appId: context.app!.id, action: 'releases.upload' });
  }

  const facts = await readPackage(deps, req, context);
  try {
    const parsed = facts.parsed;
    if (!context) {
      // No channel key: App / "Adhoc" scheme / platform channel are found or made.
      context = await deps.apps.ensureUploadChannel({
        actor,
        appName: req.name?.trim() || parsed!.name,
        deviceType: deviceTypeOf(parsed!.platform),
        bundleId: parsed!.bundleId,
      });
    }
    const channel = context.channel!;
    const platform = parsed?.platform ?? PLATFORM_OF_DEVICE_TYPE[channel.deviceType] ?? 'iOS';
    if (parsed && deviceTypeOf(parsed.platform) !== channel.deviceType) {
      throw new FailedPrecondition(
        `Channel ${channel.name} takes ${PLATFORM_OF_DEVICE_TYPE[channel.deviceType] ?? channel.deviceType} builds, but this package is ${withArticle(parsed.platform)} build`,
        { file: [`is ${withArticle(parsed.platform)} package`] },
      );
    }
    const bundleId = parsed?.bundleId ?? '';
    if (!matchesBundleIdRule(channel.bundleId, bundleId)) {
      throw new FailedPrecondition(`Bundle id ${bundleId || '(unknown)'} does not match the channel's rule ${channel.bundleId}`, {
        bundle_id: [`${bundleId || '(unknown)'} does not match ${channel.bundleId}`],
      });
    }
    if (req.password !== undefined) {
      await deps.apps.setChannelPassword({ actor, channelId: channel.id, password: req.password });
      context = await deps.apps.resolveChannel({ channelKey: '', channelId: channel.id });
    }

    const releaseVersion = req.releaseVersion.trim() || parsed?.releaseVersion || '';
    const buildVersion = req.buildVersion.trim() || parsed?.buildVersion || '';
    const record: NewRelease = {
      appId: context.app!.id,
      schemeId: context.scheme!.id,
      channelId: channel.id,
      appName: req.name?.trim() || parsed?.name || context.app!.name,
      bundleId,
      releaseVersion: parsed?.releaseVersion ?? releaseVersion,
      buildVersion: parsed?.buildVersion ?? buildVersion,
      versionKey: versionSortKey(parsed?.releaseVersion ?? releaseVersion, parsed?.buildVersion ?? buildVersion),
      source: normalizeSource(req.source),
      branch: normalizeBranch(req.branch),
      gitCommit: req.gitCommit.trim(),
      ciUrl: req.ciUrl.trim(),
      releaseType: req.releaseType.trim() || parsed?.releaseType || '',
      size: req.size,
      platform,
      deviceType: parsed?.deviceType ?? platform,
      minOsVersion: parsed?.minOsVersion ?? '',
      changelog,
      customFields,
      objectKey: req.objectKey,
      fileName: req.fileName,
      // Trusted as the gateway computed it; anything but 64 hex digits is not a hash.
      sha256: /^[0-9a-f]{64}$/.test(req.sha256) ? req.sha256 : '',
      mandatory: false,
      fileExtension: parsed ? EXTENSION_OF_FORMAT[parsed.format] : extensionFromFileName(req.fileName),
      ...(facts.iconKey ? { iconKey: facts.iconKey } : {}),
      metadataJson: JSON.stringify(parsed?.details ?? {}),
    };
    const release = await deps.releases.create(record, (id, version) =>
      createEnvelope(
        'release.created',
        {
          release_id: id,
          app_id: record.appId,
          scheme_id: record.schemeId,
          channel_id: record.channelId,
          version,
          bundle_id: record.bundleId,
          release_version: record.releaseVersion,
          build_version: record.buildVersion,
          platform: record.platform,
          ...(notify ? {} : { notify: false }),
        },
        'releases',
      ),
    );
    deps.onEventsRecorded();
    return { release, context };
  } catch (err) {
    // A write whose acknowledgement was lost may have recorded the release with this icon:
    // only a refusal removes it here; otherwise the orphan janitor does, if nothing refers to it.
    if (facts.iconKey && isRefusal(err)) await deps.storage.delete(facts.iconKey).catch(() => undefined);
    throw err;
  }
}

/**
 * A package we cannot read is accepted only into an existing channel and only
 * with both versions given (PRODUCT §3); a known type that is broken never is.
 */
async function readPackage(deps: ReleasesDeps, req: releases.CreateReleaseRequest, context?: apps.ChannelContext): Promise<PackageFacts> {
  if (req.size === 0) throw InvalidArgument.field('file', 'is empty');
  const reply = await deps.parse(req.objectKey);
  if (reply.ok) return { parsed: reply.parsed, ...(reply.iconKey ? { iconKey: reply.iconKey } : {}) };
  if (reply.kind === 'unavailable') throw new Unavailable(reply.message);
  if (reply.kind === 'corrupt') throw InvalidArgument.field('file', `is not a valid package: ${reply.message}`);
  const haveVersions = req.releaseVersion.trim() !== '' && req.buildVersion.trim() !== '';
  if (!context || !haveVersions) {
    throw InvalidArgument.field(
      'file',
      // The parser's reason (an APFS dmg, an exe without a version resource…) tells the CI log
      // reader what to change; the advice after it is the remedy that always works.
      `is not a package Hangar can read (${reply.message}). Readable: ipa, apk, aab, zipped .app, dmg, exe, msi, deb, rpm, AppImage; ` +
        'upload it into an existing channel (channel_key) with release_version and build_version to store it anyway',
    );
  }
  return {};
}
