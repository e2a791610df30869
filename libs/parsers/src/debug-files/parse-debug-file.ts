import { DebugFileParseError } from './debug-file-parse.error';
import { DEFAULT_DEBUG_FILE_LIMITS, type DebugFileLimits, type ParsedDebugFile } from './debug-file.types';
import { findDsymBundles, parseDsymArchive } from './dsym.parser';
import { findProguardFiles, parseProguardArchive } from './proguard.parser';
import { ZipEntries } from './zip-entries';

/**
 * Reads the symbol metadata of an uploaded debug-file zip: the slices of its dSYM bundles (iOS)
 * or its ProGuard mapping files (Android). Anything that is not such an archive — including
 * damaged, hostile or truncated ones — is a DebugFileParseError; I/O errors of the server pass
 * through unchanged.
 */
export async function parseDebugFile(zipPath: string, limits: Partial<DebugFileLimits> = {}): Promise<ParsedDebugFile> {
  const zip = await ZipEntries.open(zipPath, { ...DEFAULT_DEBUG_FILE_LIMITS, ...limits });
  try {
    const bundles = findDsymBundles(zip.files);
    const proguardFiles = findProguardFiles(zip.files);
    // Guessing which half the uploader meant would attach symbols to the wrong platform.
    if (bundles.length > 0 && proguardFiles.length > 0) {
      throw new DebugFileParseError('the archive holds both dSYM bundles and a mapping.txt; upload them separately');
    }
    if (bundles.length > 0) return await parseDsymArchive(zip, bundles);
    if (proguardFiles.length > 0) return await parseProguardArchive(zip, proguardFiles);
    throw new DebugFileParseError('found neither .dSYM/Contents/Resources/DWARF/* nor mapping.txt');
  } finally {
    zip.close();
  }
}
