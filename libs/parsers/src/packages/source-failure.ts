// Errors a ByteSource itself threw (disk, network, storage outage): no fault of the package, so
// they are never rewritten into PackageParseError (see asParseError and the zip reader).
const sourceFailures = new WeakSet<object>();

export function isSourceFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && sourceFailures.has(error);
}

/** Marks an error thrown by a ByteSource so the parse-error wrapping lets it through. */
export function markSourceFailure(error: unknown): unknown {
  if (typeof error === 'object' && error !== null) sourceFailures.add(error);
  return error;
}
