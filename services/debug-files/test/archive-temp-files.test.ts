import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ObjectStorage } from '@hangar/storage';
import { fixturesDir, testInfrastructure, uniqueName } from '@hangar/testing';
import { processTempDir, readDebugArchive, removeStaleTempDirs } from '../src/parsing/debug-archive.reader';

/**
 * Archives are fetched to local temporary files to be read. A debug-files process killed with
 * SIGKILL (or by the OOM killer) mid-read never runs its `finally`, so its copy stays; the next
 * start must clear it, or a crash loop fills the temp volume.
 */
describe('debug-files: temporary copies of archives', () => {
  const storage = new ObjectStorage({ ...testInfrastructure().s3, bucket: uniqueName('dbgf-tmp') });
  const roots: string[] = [];
  const children: ChildProcess[] = [];
  const newRoot = () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-dbgf-tmp-test-'));
    roots.push(root);
    return root;
  };

  beforeAll(() => storage.ensureBucket());

  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
  });

  /**
   * A process that, like readDebugArchive, has fetched an archive into its own folder under
   * `root`, and then stays busy; resolves once the copy is on disk.
   */
  async function readerMidRead(root: string): Promise<ChildProcess> {
    const script = `
      const fs = require('node:fs'), path = require('node:path');
      const dir = path.join(process.argv[1], 'hangar-debug-files-' + process.pid, 'archive-x');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'archive.zip'), Buffer.alloc(64 * 1024, 1));
      process.stdout.write('copied\\n');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['-e', script, root], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => d.toString().includes('copied') && resolve());
      child.once('exit', (code) => reject(new Error(`reader exited early (${code})`)));
    });
    return child;
  }

  it('when an archive is read, then its copy is made in this process’s own folder and removed after', async () => {
    const root = newRoot();
    const key = `debug-files/${uniqueName('mapping')}`;
    await storage.putBuffer(key, fs.readFileSync(path.join(fixturesDir(), 'proguards', 'single_mapping.zip')));

    const read = await readDebugArchive(storage, key, root);

    expect(read.parsed.kind).toBe('proguard');
    expect(fs.readdirSync(root)).toEqual([path.basename(processTempDir(root))]);
    expect(fs.readdirSync(processTempDir(root))).toEqual([]);
  });

  it('when a reader was killed mid-read, then the next start removes its copy, and keeps the folders of readers still running', async () => {
    const root = newRoot();
    const killed = await readerMidRead(root);
    const running = await readerMidRead(root);
    const exited = new Promise((resolve) => killed.once('exit', resolve));
    killed.kill('SIGKILL');
    await exited;
    // An earlier life of this very process (a restarted container gets its pid again).
    fs.mkdirSync(path.join(processTempDir(root), 'archive-y'), { recursive: true });
    fs.writeFileSync(path.join(processTempDir(root), 'archive-y', 'archive.zip'), 'left by the previous run');
    fs.mkdirSync(path.join(root, 'someone-elses-file'));
    expect(fs.existsSync(path.join(root, `hangar-debug-files-${killed.pid}`, 'archive-x', 'archive.zip'))).toBe(true);

    const removed = await removeStaleTempDirs(root);

    expect(removed.sort()).toEqual([`hangar-debug-files-${killed.pid}`, `hangar-debug-files-${process.pid}`].sort());
    expect(fs.readdirSync(root).sort()).toEqual([`hangar-debug-files-${running.pid}`, 'someone-elses-file'].sort());
  });

  it('when the folder does not exist, then there is nothing to remove', async () => {
    expect(await removeStaleTempDirs(path.join(newRoot(), 'missing'))).toEqual([]);
  });
});
