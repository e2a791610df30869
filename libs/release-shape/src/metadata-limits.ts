/**
 * The longest value, in UTF-8 bytes, each metadata field of a release may carry.
 * Bounded so that a page of releases (100 at most) stays far below gRPC's 4 MiB message limit
 * whatever callers send: every field at its limit is at most about 26 KiB a release as stored (plain-text changelog of
 * one-character lines, the worst case). The gateway checks
 * the fields sent before a package's file part before a byte of it is stored; the releases
 * service checks every write (uploads, finished resumable uploads, edits). docs/operations.md,
 * Security.
 */
export const RELEASE_FIELD_LIMITS = {
  name: 255,
  release_type: 64,
  source: 64,
  branch: 255,
  git_commit: 128,
  ci_url: 2048,
  password: 255,
  release_version: 255,
  build_version: 255,
  changelog: 6 * 1024,
  custom_fields: 4 * 1024,
} as const satisfies Record<string, number>;

export type LimitedReleaseField = keyof typeof RELEASE_FIELD_LIMITS;

/**
 * Each field of `fields` longer than its limit, with the problem to answer
 * (`{"branch": ["is too long (at most 255 bytes)"]}`); empty when all fit.
 */
export function oversizedReleaseFields(fields: Partial<Record<string, string | undefined>>): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  for (const [field, limit] of Object.entries(RELEASE_FIELD_LIMITS)) {
    const value = fields[field];
    if (value !== undefined && Buffer.byteLength(value, 'utf8') > limit) problems[field] = [`is too long (at most ${limit} bytes)`];
  }
  return problems;
}
