import type { ByteSource } from '../packages/byte-source';

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
   * The entry's own file was put in the parse's member store under the entry's index (an ELF file
   * inside a zip or tar, a dSYM's Mach-O slice): clients fetch that file, not the archive.
   */
  stored?: true;
}

/**
 * Where the members of an archive that clients fetch on their own are put as the archive is read
 * (the debug-files service: objects beside the archive in storage; tests: a folder). Nothing is
 * written to a temporary folder on the way: members stream from the archive straight into it.
 */
export interface DebugMemberStore {
  /** Stores `bytes` as the own file of the parse's entry `index`, reading them to their end. */
  put(index: number, bytes: AsyncIterable<Buffer>): Promise<void>;
  /** Opens what `put` stored for entry `index`, to read it by position (an ELF file's identity). */
  open(index: number): Promise<ByteSource>;
}

export interface DebugFileParseOptions {
  limits?: Partial<DebugFileLimits>;
  /**
   * Where members are put. Needed for archives of ELF files (read by position once stored); a
   * dSYM's slices are stored only when it is given.
   */
  members?: DebugMemberStore;
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
  /**
   * Largest sum of the uncompressed sizes all entries declare (a zip: checked on its directory
   * before anything is inflated, and yauzl stops any entry inflating past its declared size), or
   * of the bytes a gzipped tar inflates to (stopped as the count crosses it).
   * DEBUG_FILE_MAX_INFLATED_BYTES in the debug-files service.
   */
  maxTotalBytes: number;
  /**
   * Most inflated bytes per compressed byte, judged once more than `ratioFloorBytes` inflate (a
   * zip: per entry and for the archive, from its directory; a tar.gz: as it streams). A few MB
   * of zeros inflating to GiBs is refused at once. DEBUG_FILE_MAX_COMPRESSION_RATIO.
   */
  maxCompressionRatio: number;
  /** Below this many inflated bytes the ratio is not judged (small files of zeros are fine). */
  ratioFloorBytes: number;
}

export const DEFAULT_DEBUG_FILE_LIMITS: DebugFileLimits = {
  maxEntries: 20_000,
  // DWARF files of large apps reach hundreds of MB; 4 GiB leaves room without inviting bombs.
  maxEntryBytes: 4 * 1024 ** 3,
  // A 3 GiB mapping bomb cost 27 s of CPU before this bound; real archives stay well under 1 GiB.
  maxTotalBytes: 1024 ** 3,
  // Text (ProGuard mappings) and DWARF compress 5–20:1; 200:1 over 16 MiB is a bomb.
  maxCompressionRatio: 200,
  ratioFloorBytes: 16 * 1024 ** 2,
};

/** Whether `inflated` bytes from `compressed` exceed the ratio limit (past its floor). */
export function overRatio(inflated: number, compressed: number, limits: DebugFileLimits): boolean {
  return inflated > limits.ratioFloorBytes && inflated > Math.max(compressed, 1) * limits.maxCompressionRatio;
}
