/**
 * A path of this site to go on to after a form or a link (`/releases/12`), never another site's:
 * `//evil.example`, `/\evil.example` and anything with spaces are refused (an open redirect).
 */
export function localPath(value: unknown): string | undefined {
  return typeof value === 'string' && /^\/(?!\/)[^\s\\]*$/.test(value) ? value : undefined;
}
