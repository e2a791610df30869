/** What an upload must be; every rejection starts with it so CI users see what to send instead. */
export const EXPECTED_DEBUG_ARCHIVE = 'expected a zip of .dSYM bundles or a ProGuard mapping.txt, an ELF file with a GNU build-id, a PDB or PE image, or a Breakpad .sym file';

/**
 * The uploaded archive is not a debug file Hangar can read. The message is safe to show to the
 * uploader (the gateway answers 422 with it); I/O failures of the server are never wrapped in it.
 */
export class DebugFileParseError extends Error {
  constructor(detail?: string, options?: { cause?: unknown }) {
    super(detail ? `${EXPECTED_DEBUG_ARCHIVE}: ${detail}` : EXPECTED_DEBUG_ARCHIVE, options);
    this.name = 'DebugFileParseError';
  }
}

/**
 * Node system errors (ENOENT, EMFILE, ...) carry `syscall`; they are the server's problem, not the
 * upload's. Duck-typed because errors raised by Node internals fail `instanceof Error` inside
 * sandboxes such as Jest's module registry.
 */
export function isSystemError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

/**
 * The archive would inflate past a limit (DEBUG_FILE_MAX_INFLATED_BYTES, or the compression ratio
 * of DEBUG_FILE_MAX_COMPRESSION_RATIO): refused before or as the bound is crossed, answered 413.
 */
export class InflationLimitError extends DebugFileParseError {
  constructor(detail: string) {
    super();
    this.message = `the archive is refused: ${detail}`;
    this.name = 'InflationLimitError';
  }
}
