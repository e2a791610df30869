import { InvalidArgument } from '@hangar/errors';
import { oversizedReleaseFields } from '@hangar/release-shape';

/**
 * Refuses any metadata field past its limit (RELEASE_FIELD_LIMITS) before anything is read or
 * stored: an unbounded field once let one upload push a channel's page of releases past gRPC's
 * message limit, breaking it for everyone. Form names, as the caller sent them.
 */
export function checkFieldLengths(fields: Partial<Record<string, string | undefined>>): void {
  const problems = oversizedReleaseFields(fields);
  const names = Object.keys(problems);
  if (names.length > 0) throw new InvalidArgument(`${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} too long`, problems);
}

/** CI systems send `origin/main`; the branch is `main`. */
export function normalizeBranch(branch: string): string {
  return branch.trim().replace(/^origin\//, '');
}

/** `source` defaults to `api` (seed). */
export function normalizeSource(source: string): string {
  return source.trim() || 'api';
}
