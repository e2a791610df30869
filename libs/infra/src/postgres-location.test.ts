import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertClusterNotLost, clusterRecordOf, clusterRoot, moveCluster, recordCluster } from './postgres-location';

/** Where the embedded PostgreSQL's files are, and what happens when they are gone, on real folders. */
describe('postgres location', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-location-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function fakeCluster(root: string) {
    fs.mkdirSync(path.join(root, 'data', 'base', '1'), { recursive: true });
    fs.writeFileSync(path.join(root, 'data', 'PG_VERSION'), '18\n');
    fs.writeFileSync(path.join(root, 'data', 'base', '1', '1259'), Buffer.alloc(8192, 7));
    fs.writeFileSync(path.join(root, 'password'), 'secret\n', { mode: 0o600 });
  }

  it('when a data dir never held a cluster, then a first one may be made', () => {
    expect(() => assertClusterNotLost(path.join(dir, 'postgres'))).not.toThrow();
  });

  it('when the recorded cluster folder is removed, then the start is refused with the reason and the way out', () => {
    const root = path.join(dir, 'postgres');
    fakeCluster(root);
    recordCluster(root, path.join(root, 'data'));
    expect(() => assertClusterNotLost(root)).not.toThrow();

    fs.rmSync(root, { recursive: true });

    expect(() => assertClusterNotLost(root)).toThrow(/PostgreSQL's data is missing: .* held Hangar's database .*Restore the folder from a backup.*remove .*postgres-cluster\.json/);
  });

  it('when the folder a link points to is gone (tmpfiles emptied /var/tmp), then the start is refused even without a record', () => {
    const elsewhere = path.join(dir, 'elsewhere', 'abc');
    fs.mkdirSync(path.dirname(elsewhere));
    const link = path.join(dir, 'postgres');
    fs.symlinkSync(elsewhere, link);
    expect(fs.existsSync(clusterRecordOf(link))).toBe(false);

    expect(() => assertClusterNotLost(link)).toThrow(/the link .*postgres points to it/);
  });

  it('when a cluster is moved, then the copy is verified and recorded, the link points to it, and the old folder stays', () => {
    const from = path.join(dir, 'var-tmp', 'abc');
    const to = path.join(dir, 'var-lib', 'abc');
    fakeCluster(from);
    const link = path.join(dir, 'postgres');
    fs.symlinkSync(from, link);
    const lines: string[] = [];

    moveCluster(from, to, link, (l) => lines.push(l));

    expect(clusterRoot(link)).toBe(to);
    expect(fs.readFileSync(path.join(to, 'data', 'base', '1', '1259'))).toEqual(Buffer.alloc(8192, 7));
    expect(fs.statSync(path.join(to, 'password')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(path.join(to, 'MOVED-FROM.json'), 'utf8'))).toMatchObject({ from, files: 3 });
    expect(fs.existsSync(path.join(from, 'data', 'PG_VERSION'))).toBe(true);
    expect(lines.join('\n')).toMatch(/kept until you remove it/);

    // Again (the next start): nothing copied twice, the link stays.
    moveCluster(from, to, link, (l) => lines.push(l));
    expect(clusterRoot(link)).toBe(to);
  });
});
