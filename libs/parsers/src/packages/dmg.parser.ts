import { PackageParseError, UnknownPackageError } from './package.errors';
import type { ParsedPackage } from './package.types';
import { labelled, type SourceReader } from './byte-source';

/**
 * A UDIF disk image (.dmg). Checks the koly trailer, then stops: the app bundle lives inside a
 * usually compressed HFS+ or APFS volume, and reading those file systems is out of scope (see
 * README). UnknownPackageError lets an upload fall back to explicit release/build versions.
 */
export async function parseDmg(source: SourceReader): Promise<ParsedPackage> {
  await labelled(source, 'dmg', async (file) => {
    const trailer = await file.read(file.size - 512, 512);
    const version = trailer.readUInt32BE(4);
    const headerSize = trailer.readUInt32BE(8);
    if (trailer.toString('latin1', 0, 4) !== 'koly' || headerSize !== 512 || version !== 4) {
      throw new PackageParseError(`dmg: malformed koly trailer (version ${version}, header size ${headerSize})`);
    }
  });
  throw new UnknownPackageError('dmg: the app inside a disk image is not read; give release_version and build_version');
}
