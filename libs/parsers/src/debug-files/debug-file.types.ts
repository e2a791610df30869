/** One symbol record: a Mach-O slice of a dSYM, or one file of a ProGuard mapping archive. */
export interface DebugSymbolEntry {
  /** iOS: the slice's LC_UUID; Android: the content-derived id of the archive's mapping.txt; ELF: the GNU build-id (hex). */
  uuid: string;
  /** iOS: architecture label (arm64, armv7, ...); Android: 'mapping' | 'r_txt' | 'manifest'. */
  type: string;
  /** iOS: DWARF object name; Android: file name. */
  object: string;
  /** iOS: slice size in bytes; Android: file size in bytes. */
  size: number;
  /** JSON-safe extras. Keys never contain '.' or start with '$' so they can be stored in MongoDB. */
  data: Record<string, unknown>;
  /**
   * A member of the upload extracted to a local file, to be stored on its own (an ELF file inside
   * a zip: clients fetch the file, not the archive). Gone when the parse's temporary folder is.
   */
  extractedPath?: string;
}

export interface ParsedDebugFile {
  kind: 'dsym' | 'proguard' | 'elf' | 'breakpad' | 'pdb' | 'pe';
  deviceType: 'ios' | 'android' | 'linux' | 'windows' | 'macos';
  bundleId?: string;
  releaseVersion?: string;
  buildVersion?: string;
  entries: DebugSymbolEntry[];
}

/** Bounds that keep a hostile archive from exhausting memory, disk or time. */
export interface DebugFileLimits {
  /** Most entries the archive may list. */
  maxEntries: number;
  /** Largest uncompressed size one entry may declare. */
  maxEntryBytes: number;
  /** Largest sum of the uncompressed sizes all entries declare. */
  maxTotalBytes: number;
}

export const DEFAULT_DEBUG_FILE_LIMITS: DebugFileLimits = {
  maxEntries: 20_000,
  // DWARF files of large apps reach hundreds of MB; 4 GiB leaves room without inviting bombs.
  maxEntryBytes: 4 * 1024 ** 3,
  maxTotalBytes: 16 * 1024 ** 3,
};
