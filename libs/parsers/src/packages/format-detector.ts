import { sniffContainer } from './magic';
import type { PackageFormat } from './package.types';
import { withSource, type ByteSource } from './byte-source';
import { detectZipPackage } from './zip-layout';
import { ZipArchive } from './zip-reader';

/**
 * The package format from the content (magic bytes, zip central directory), never the name. A path
 * means a local file; a ByteSource handed in is closed when detection ends, as parsePackage does.
 * Undefined when the content is no known package; throws PackageParseError when it starts like a
 * known container (e.g. a zip) whose structure is broken, since then no answer would be honest.
 */
export async function detectPackageFormat(source: string | ByteSource): Promise<PackageFormat | undefined> {
  return withSource(source, 'package', async (reader) => {
    const container = await sniffContainer(reader);
    if (container !== 'zip') return container;
    // Listing names needs no entry to be inflated, so the size limit does not matter here.
    const zip = await ZipArchive.open(reader.source, 0);
    try {
      return detectZipPackage(zip.names());
    } finally {
      zip.close();
    }
  });
}
