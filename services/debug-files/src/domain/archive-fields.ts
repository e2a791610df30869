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

/** Which archives a channel takes: dSYMs belong to Apple platforms, mappings to Android, ELF files to Linux. */
const CHANNELS_OF_KIND = { dsym: ['ios', 'macos'], proguard: ['android'], elf: ['linux'], breakpad: [], pdb: ['windows'], pe: ['windows'] } as const;
const KIND_LABEL = { dsym: 'a dSYM archive', proguard: 'a ProGuard mapping archive', elf: 'an ELF debug file', breakpad: 'a Breakpad symbol file', pdb: 'a PDB', pe: 'a PE image' } as const;
const TAKES: Record<string, string> = {
  android: 'ProGuard mapping archives or Breakpad symbol files',
  ios: 'dSYM archives or Breakpad symbol files',
  macos: 'dSYM archives or Breakpad symbol files',
  linux: 'ELF debug files or Breakpad symbol files',
  windows: 'PDBs, PE images or Breakpad symbol files',
};

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
  // A Breakpad file says which system it is for: it goes to that system's channels.
  const fits = parsed.kind === 'breakpad' ? parsed.deviceType === channel.deviceType : (CHANNELS_OF_KIND[parsed.kind] as readonly string[]).includes(channel.deviceType);
  if (!fits) {
    const wanted = TAKES[channel.deviceType] ?? 'no debug files';
    const what = parsed.kind === 'breakpad' ? `${KIND_LABEL.breakpad} for ${parsed.deviceType}` : KIND_LABEL[parsed.kind];
    throw new FailedPrecondition(`Channel ${channel.name} (${channel.deviceType}) takes ${wanted}, but this is ${what}`, {
      file: [`is ${what}`],
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
    // A PDB or PE does not know its own file name; symbol servers are asked by it, so the upload's name is kept.
    entries: parsed.entries.map((e, i) => ({
      uuid: e.uuid.toLowerCase(),
      ...(read.memberKeys[i] ? { objectKey: read.memberKeys[i] } : {}),
      type: e.type,
      object: parsed.kind === 'pdb' || parsed.kind === 'pe' ? baseName(form.fileName, parsed.kind) : e.object,
      size: e.size,
      dataJson: JSON.stringify(e.data),
    })),
  };
}

/** The base name of the uploaded file (browsers send paths, Windows tools backslashes). */
function baseName(fileName: string, kind: 'pdb' | 'pe'): string {
  const base = fileName.split(/[\\/]/).pop()?.trim() ?? '';
  return base || (kind === 'pdb' ? 'unknown.pdb' : 'unknown.exe');
}
