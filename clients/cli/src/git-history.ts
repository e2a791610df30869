import { execFileSync } from 'node:child_process';

export interface ChangelogEntry {
  message: string;
  author: string;
  email: string;
  date: string;
}

function git(args: string[], cwd: string): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 }).trim();
  } catch {
    return undefined;
  }
}

/** The checkout's branch and commit, for uploads made outside CI. A detached HEAD has no branch. */
export function localCheckout(cwd: string): { branch?: string; gitCommit?: string } {
  const gitCommit = git(['rev-parse', 'HEAD'], cwd);
  const branch = git(['symbolic-ref', '--short', '-q', 'HEAD'], cwd);
  return { ...(branch ? { branch } : {}), ...(gitCommit ? { gitCommit } : {}) };
}

/** The top folder of the git work tree `cwd` is in; undefined outside any (or without git). */
export function workTreeOf(cwd: string): string | undefined {
  return git(['rev-parse', '--show-toplevel'], cwd) || undefined;
}

const FIELD = '\x1f';
const RECORD = '\x1e';

/**
 * Commits since the last build's commit, newest first, in the JSON entry shape
 * the upload takes (`message`, `author`, `email`, `date`). When the last commit
 * is unknown here (a first build, a shallow clone, a rewritten history), only
 * HEAD is given: a changelog of the whole history helps no tester.
 */
export function changelogSince(lastCommit: string | undefined, cwd: string): { entries: ChangelogEntry[]; range: string } {
  const known = lastCommit && git(['cat-file', '-e', `${lastCommit}^{commit}`], cwd) !== undefined;
  const range = known ? [`${lastCommit}..HEAD`] : ['-1', 'HEAD'];
  const out = git(['log', ...range, `--format=%s${FIELD}%an${FIELD}%ae${FIELD}%aI${RECORD}`], cwd);
  if (out === undefined) throw new Error(`git log failed in ${cwd}: is it a git checkout?`);
  const entries = out
    .split(RECORD)
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => {
      const [message = '', author = '', email = '', date = ''] = r.split(FIELD);
      return { message, author, email, date };
    });
  return { entries, range: range.join(' ') };
}

/** The server's limit on a changelog, in UTF-8 bytes (docs/operations.md, Security). */
export const CHANGELOG_MAX_BYTES = 6 * 1024;

/**
 * The newest entries whose JSON fits in `maxBytes`, and how many older ones were left out: a long
 * history since the last build would otherwise make the upload a 422.
 */
export function fitChangelog(entries: ChangelogEntry[], maxBytes = CHANGELOG_MAX_BYTES): { json: string; dropped: number } {
  const whole = JSON.stringify(entries);
  if (Buffer.byteLength(whole) <= maxBytes) return { json: whole, dropped: 0 };
  const kept: ChangelogEntry[] = [];
  let size = 2; // []
  for (const entry of entries) {
    const cut = { ...entry, message: entry.message.slice(0, 1000) };
    const bytes = Buffer.byteLength(JSON.stringify(cut)) + (kept.length ? 1 : 0);
    if (size + bytes > maxBytes) break;
    size += bytes;
    kept.push(cut);
  }
  return { json: JSON.stringify(kept), dropped: entries.length - kept.length };
}
