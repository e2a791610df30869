/** CI systems send `origin/main`; the branch is `main`. */
export function normalizeBranch(branch: string): string {
  return branch.trim().replace(/^origin\//, '');
}

/** `source` defaults to `api` (seed). */
export function normalizeSource(source: string): string {
  return source.trim() || 'api';
}
