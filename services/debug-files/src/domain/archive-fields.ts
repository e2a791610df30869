import { FailedPrecondition, FieldErrors, InvalidArgument } from '@hangar/errors';
import type { apps } from '@hangar/proto';
import type { ArchiveFields } from '../data/debug-files.repository';
import type { ReadArchive } from '../parsing/debug-archive.reader';
import { versionSortKey } from '@hangar/versions';

export interface UploadForm {
  objectKey: string;
  fileName: string;
  releaseVersion: string;
  buildVersion: string;
}

/** Which archives a channel takes: dSYMs belong to Apple platforms, mappings to Android. */
const CHANNELS_OF_KIND = { dsym: ['ios', 'macos'], proguard: ['android'] } as const;
const KIND_LABEL = { dsym: 'a dSYM archive', proguard: 'a ProGuard mapping archive' } as const;

/**
 * What gets stored for a parsed archive. iOS: bundle id and versions from
 * the dSYM's Info.plist win over the form (the form's are the fallback when a
 * bundle has no Info.plist). Android: both versions are required from the
 * form — a mapping does not carry them reliably —, the manifest's package is
 * kept as the bundle id.
 */
export function archiveFields(context: apps.ChannelContext, read: ReadArchive, form: UploadForm): ArchiveFields {
  const { parsed } = read;
  const channel = context.channel!;
  if (!(CHANNELS_OF_KIND[parsed.kind] as readonly string[]).includes(channel.deviceType)) {
    const wanted = channel.deviceType === 'android' ? 'ProGuard mapping archives' : ['ios', 'macos'].includes(channel.deviceType) ? 'dSYM archives' : 'no debug files';
    throw new FailedPrecondition(`Channel ${channel.name} (${channel.deviceType}) takes ${wanted}, but this is ${KIND_LABEL[parsed.kind]}`, {
      file: [`is ${KIND_LABEL[parsed.kind]}`],
    });
  }
  let releaseVersion = form.releaseVersion.trim();
  let buildVersion = form.buildVersion.trim();
  if (parsed.kind === 'proguard') {
    const entry: FieldErrors = {};
    if (!releaseVersion) entry.release_version = ["can't be blank for an Android mapping"];
    if (!buildVersion) entry.build_version = ["can't be blank for an Android mapping"];
    if (Object.keys(entry).length > 0) throw new InvalidArgument(`Missing fields: ${Object.keys(entry).join(', ')}`, entry);
  } else {
    releaseVersion = parsed.releaseVersion ?? releaseVersion;
    buildVersion = parsed.buildVersion ?? buildVersion;
  }
  return {
    deviceType: parsed.deviceType,
    kind: parsed.kind,
    bundleId: parsed.bundleId ?? '',
    releaseVersion,
    buildVersion,
    versionKey: versionSortKey(releaseVersion, buildVersion),
    objectKey: form.objectKey,
    fileName: form.fileName,
    size: read.size,
    checksum: read.checksum,
    entries: parsed.entries.map((e) => ({ uuid: e.uuid.toLowerCase(), type: e.type, object: e.object, size: e.size, dataJson: JSON.stringify(e.data) })),
  };
}
