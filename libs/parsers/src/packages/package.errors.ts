import { isSourceFailure } from './source-failure';

/** The file is of a known package type but its content is broken or hostile; the message says what is wrong. */
export class PackageParseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PackageParseError';
  }
}

/** The content matches none of the package formats Hangar understands. */
export class UnknownPackageError extends Error {
  constructor(message = 'the file is not a package format Hangar can read', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnknownPackageError';
  }
}

/**
 * Wraps anything a low-level decoder throws so callers only ever see our two error types — except
 * a failure of the source itself (disk, network, storage), which is no fault of the package.
 */
export function asParseError(format: string, error: unknown): Error {
  if (error instanceof PackageParseError || error instanceof UnknownPackageError) return error;
  if (isSourceFailure(error)) return error as Error;
  const reason = error instanceof Error ? error.message : String(error);
  return new PackageParseError(`${format}: ${reason}`, { cause: error });
}
