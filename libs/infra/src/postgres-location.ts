import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the embedded PostgreSQL keeps its files, and what keeps them from being lost unnoticed
 *. Never in a folder a system cleans (/tmp, /var/tmp: systemd-tmpfiles removes
 * entries untouched for 30 days); a data directory that once held a cluster and holds none now
 * stops the start instead of getting an empty one — an empty database beside a bucket of builds
 * would make every build look orphaned.
 */

/** As root, when the postgres user cannot reach HANGAR_DATA_DIR: a folder of its own here, per data dir. */
export const DURABLE_POSTGRES_ROOT = '/var/lib/hangar/postgres';
/** Where an older Hangar put it (cleaned by systemd-tmpfiles): moved from on the next start. */
export const VOLATILE_POSTGRES_ROOT = '/var/tmp/hangar-postgres';

type Owner = { uid: number; gid: number };

/** The record beside `<dataDir>/postgres` that a cluster was made (its path): outlives the folder and the link. */
export const clusterRecordOf = (root: string) => `${root}-cluster.json`;

const CLEANED_FOLDERS = ['/tmp', '/var/tmp'];
const inCleanedFolder = (dir: string) => CLEANED_FOLDERS.some((c) => dir === c || dir.startsWith(`${c}/`));

/**
 * Where PostgreSQL's files go: `preferred` (under HANGAR_DATA_DIR), unless PostgreSQL — as root,
 * it runs as the postgres user — cannot reach it, e.g. a checkout under /root (mode 0700). Then
 * a folder of its own under /var/lib/hangar/postgres, named after `preferred` so every start
 * finds the same data, with a link at `preferred` pointing there. A link into
 * /var/tmp/hangar-postgres (an older Hangar) is moved there first (copied, checked, recorded;
 * the old folder stays until the operator removes it). Answers `preferred`.
 */
export function postgresRoot(preferred: string, owner: Owner | undefined, log: (line: string) => void): string {
  fs.mkdirSync(path.dirname(preferred), { recursive: true });
  const linked = fs.lstatSync(preferred, { throwIfNoEntry: false })?.isSymbolicLink();
  if (linked) {
    const target = path.resolve(path.dirname(preferred), fs.readlinkSync(preferred));
    if (path.dirname(target) === VOLATILE_POSTGRES_ROOT && fs.existsSync(path.join(target, 'data', 'PG_VERSION'))) {
      moveCluster(target, path.join(DURABLE_POSTGRES_ROOT, path.basename(target)), preferred, log);
    }
    return preferred;
  }
  if (!owner || reachable(path.dirname(preferred), owner)) {
    if (inCleanedFolder(path.resolve(preferred))) {
      log(`Warning: PostgreSQL's data is in ${preferred}, a folder the system may clean (systemd-tmpfiles); set HANGAR_DATA_DIR to a durable folder for anything you keep`);
    }
    return preferred;
  }
  const elsewhere = path.join(DURABLE_POSTGRES_ROOT, crypto.createHash('sha256').update(path.resolve(preferred)).digest('hex').slice(0, 16));
  fs.mkdirSync(path.dirname(elsewhere), { recursive: true, mode: 0o755 });
  if (!fs.existsSync(preferred)) {
    // The folder first: a link to a folder that is not there means its data was lost.
    if (!fs.existsSync(elsewhere)) fs.mkdirSync(elsewhere, { mode: 0o700 });
    fs.chownSync(elsewhere, owner.uid, owner.gid);
    fs.symlinkSync(elsewhere, preferred);
  }
  log(`The postgres user cannot reach ${path.dirname(preferred)}: PostgreSQL keeps its data in ${elsewhere} (linked from ${preferred})`);
  return preferred;
}

function reachable(dir: string, owner: Owner): boolean {
  return spawnSync('test', ['-x', dir], { uid: owner.uid, gid: owner.gid }).status === 0;
}

/** `root`, or where it links to. */
export function clusterRoot(root: string): string {
  if (!fs.lstatSync(root, { throwIfNoEntry: false })?.isSymbolicLink()) return root;
  return path.resolve(path.dirname(root), fs.readlinkSync(root));
}

/**
 * Before any initdb: `root` (as given: `<dataDir>/postgres`) recorded a cluster, or links to a
 * folder that is gone, and no cluster is there now — a refusal, never a fresh cluster.
 */
export function assertClusterNotLost(root: string): void {
  const resolved = clusterRoot(root);
  if (fs.existsSync(path.join(resolved, 'data', 'PG_VERSION'))) return;
  const record = clusterRecordOf(root);
  const linkedToNothing = resolved !== root && !fs.existsSync(resolved);
  if (!fs.existsSync(record) && !linkedToNothing) return;
  const where = resolved === root ? root : `${resolved} (linked from ${root})`;
  const evidence = fs.existsSync(record) ? `${record} records a cluster made there` : `the link ${root} points to it`;
  throw new Error(
    `PostgreSQL's data is missing: ${where} held Hangar's database (${evidence}) and holds none now — removed, ` +
      'or cleaned by the system. Hangar does not make an empty database in its place: its storage would then look orphaned. ' +
      `Restore the folder from a backup, or set POSTGRES_URL to the database; only to start over with an empty database on purpose, remove ${fs.existsSync(record) ? record : root}` +
      `${fs.existsSync(record) && resolved !== root ? ` and ${root}` : ''} (docs/operations.md, Where the data lives)`,
  );
}

/** After a cluster is there: recorded beside `root`, so its loss is noticed (see assertClusterNotLost). */
export function recordCluster(root: string, dataDir: string): void {
  const record = clusterRecordOf(root);
  if (fs.existsSync(record)) return;
  fs.writeFileSync(record, `${JSON.stringify({ cluster: dataDir, recordedAt: new Date().toISOString() }, null, 2)}\n`, { mode: 0o644 });
}

interface FileSummary {
  files: number;
  bytes: number;
  digest: string;
}

/** Every file under `dir` (relative path, mode, size, content) in one digest. */
function summarize(dir: string): FileSummary {
  const hash = crypto.createHash('sha256');
  let files = 0;
  let bytes = 0;
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) {
        hash.update(`d ${child}\n`);
        walk(child);
      } else if (entry.isFile()) {
        const content = fs.readFileSync(path.join(dir, child));
        hash.update(`f ${child} ${content.length}\n`).update(content);
        files += 1;
        bytes += content.length;
      } else if (entry.isSymbolicLink()) {
        hash.update(`l ${child} ${fs.readlinkSync(path.join(dir, child))}\n`);
      }
    }
  };
  walk('');
  return { files, bytes, digest: hash.digest('hex') };
}

function pidAlive(pidFile: string): boolean {
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Moves a stopped cluster folder `from` to `to`: copied with owners and modes (`cp -a`), every
 * file compared, recorded in `to/MOVED-FROM.json`, then the link at `link` points to `to`.
 * `from` stays where it was: the operator removes it once satisfied. A copy that does not
 * verify throws before the link changes, so the start stops on the old data untouched.
 */
export function moveCluster(from: string, to: string, link: string, log: (line: string) => void): void {
  const pidFile = path.join(from, 'data', 'postmaster.pid');
  if (fs.existsSync(pidFile) && pidAlive(pidFile)) {
    throw new Error(`PostgreSQL is still running on ${from} (${pidFile}): stop it, then start Hangar again to move its data to ${to}`);
  }
  if (!fs.existsSync(path.join(to, 'MOVED-FROM.json'))) {
    log(`Moving PostgreSQL's data from ${from} (a folder the system cleans) to ${to}`);
    const partial = `${to}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o755 });
    const copy = spawnSync('cp', ['-a', from, partial], { encoding: 'utf8' });
    if (copy.status !== 0) throw new Error(`Could not copy ${from} to ${partial}: ${copy.stderr}`);
    const [source, copied] = [summarize(from), summarize(partial)];
    if (source.digest !== copied.digest) {
      throw new Error(`The copy of ${from} in ${partial} differs from it (${copied.files} of ${source.files} files): nothing was changed; ${from} is still in use`);
    }
    fs.writeFileSync(path.join(partial, 'MOVED-FROM.json'), `${JSON.stringify({ from, movedAt: new Date().toISOString(), ...source }, null, 2)}\n`);
    fs.rmSync(to, { recursive: true, force: true });
    fs.renameSync(partial, to);
    log(`Moved and verified (${source.files} files, ${source.bytes} bytes); ${from} is kept until you remove it (rm -rf ${from})`);
  }
  const next = `${link}.next`;
  fs.rmSync(next, { force: true });
  fs.symlinkSync(to, next);
  fs.renameSync(next, link);
}
