import { listArMembers } from './ar-reader';
import { decompressBounded } from './decompress';
import { PackageParseError } from './package.errors';
import type { ParsedPackage, ParseOptions } from './package.types';
import { labelled, type SourceReader } from './byte-source';
import { findTarFile } from './tar-reader';

// control.tar holds a few text files; megabytes would already be suspicious.
const MAX_CONTROL_ARCHIVE = 16 * 1024 * 1024;

export async function parseDeb(source: SourceReader, options: Required<ParseOptions>): Promise<ParsedPackage> {
  const limit = Math.min(options.maxEntrySize, MAX_CONTROL_ARCHIVE);
  const compressed = await labelled(source, 'deb', async (file) => {
    const members = await listArMembers(file);
    const control = members.find((member) => /^control\.tar(\.(gz|xz|zst))?$/.test(member.name));
    if (!control) throw new PackageParseError('deb: no control.tar member');
    if (control.size > limit) throw new PackageParseError(`deb: control archive of ${control.size} bytes is above the ${limit}-byte limit`);
    return file.read(control.offset, control.size);
  });
  const tar = await decompressBounded(compressed, limit, 'deb control.tar');
  const controlFile = await findTarFile(tar, (path) => path === 'control');
  if (!controlFile) throw new PackageParseError('deb: control.tar has no control file');

  const fields = parseControl(controlFile.toString('utf8'));
  const packageName = fields.get('package');
  const version = fields.get('version');
  if (!packageName || !version) throw new PackageParseError('deb: control file lacks Package or Version');
  const { epoch, upstream, revision } = splitDebianVersion(version);
  const synopsis = fields.get('description')?.split('\n')[0]?.trim();

  return {
    format: 'deb',
    platform: 'Linux',
    deviceType: 'Linux',
    name: packageName,
    bundleId: packageName,
    releaseVersion: upstream,
    buildVersion: revision ?? '0',
    details: {
      version,
      epoch,
      architecture: fields.get('architecture'),
      summary: synopsis,
      maintainer: fields.get('maintainer'),
      section: fields.get('section'),
      homepage: fields.get('homepage'),
      depends: fields.get('depends'),
      installedSizeKiB: fields.has('installed-size') ? Number(fields.get('installed-size')) : undefined,
    },
  };
}

/** Debian control syntax: "Field: value", continuation lines start with whitespace. Keys lower-cased. */
export function parseControl(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let current: string | undefined;
  for (const line of text.split('\n')) {
    if (/^\s/.test(line) && current) {
      fields.set(current, `${fields.get(current) ?? ''}\n${line.trim()}`);
      continue;
    }
    const match = /^([A-Za-z0-9][A-Za-z0-9-]*):\s*(.*)$/.exec(line);
    if (!match?.[1]) continue;
    current = match[1].toLowerCase();
    fields.set(current, (match[2] ?? '').trim());
  }
  return fields;
}

/** [epoch:]upstream_version[-debian_revision]; the revision is after the last hyphen. */
export function splitDebianVersion(version: string): { epoch?: number; upstream: string; revision?: string } {
  const colon = version.indexOf(':');
  const epoch = colon > 0 ? Number(version.slice(0, colon)) : undefined;
  const rest = colon > 0 ? version.slice(colon + 1) : version;
  const hyphen = rest.lastIndexOf('-');
  return hyphen > 0
    ? { epoch, upstream: rest.slice(0, hyphen), revision: rest.slice(hyphen + 1) }
    : { epoch, upstream: rest };
}
