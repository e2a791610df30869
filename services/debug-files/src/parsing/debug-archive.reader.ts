import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidArgument } from '@hangar/errors';
import { DebugFileParseError, ParsedDebugFile, parseDebugFile } from '@hangar/parsers';
import type { ObjectStorage } from '@hangar/storage';

export interface ReadArchive {
  parsed: ParsedDebugFile;
  /** sha256 of the stored bytes, hex. */
  checksum: string;
  size: number;
}

const PROCESS_DIR = /^hangar-debug-files-(\d+)$/;

/** Where this process fetches archives: one folder per process, so a successor can tell its leftovers. */
export function processTempDir(tmpDir = os.tmpdir()): string {
  return path.join(tmpDir, `hangar-debug-files-${process.pid}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes what processes killed mid-read left in `tmpDir` (a `finally` does not run under
 * SIGKILL or OOM): the folders of processes no longer running, and one carrying this process's
 * own pid, which can only be an earlier life's (a restarted container is pid 1 again). Without
 * this, a crash-looping service filled its temp volume archive by archive, and then every
 * upload failed. Folders of live processes (other instances sharing the directory) are kept.
 */
export async function removeStaleTempDirs(tmpDir = os.tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await fs.readdir(tmpDir).catch(() => [] as string[])) {
    const pid = Number(PROCESS_DIR.exec(name)?.[1]);
    if (!pid || (pid !== process.pid && isRunning(pid))) continue;
    await fs.rm(path.join(tmpDir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/**
 * Fetches the uploaded object to a temporary file — streamed, hashing as it
 * goes, so memory stays flat whatever the size — reads its symbols and
 * removes the file. Not a debug archive: InvalidArgument (422) with the
 * parser's message, which says what was expected. Storage failures stay
 * Unavailable.
 */
export async function readDebugArchive(storage: ObjectStorage, objectKey: string, tmpDir = os.tmpdir()): Promise<ReadArchive> {
  const parent = processTempDir(tmpDir);
  await fs.mkdir(parent, { recursive: true });
  const dir = await fs.mkdtemp(path.join(parent, 'archive-'));
  const file = path.join(dir, 'archive.zip');
  try {
    const hash = createHash('sha256');
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(await storage.getStream(objectKey), tap, createWriteStream(file));
    const checksum = hash.digest('hex');
    try {
      return { parsed: await parseDebugFile(file), checksum, size };
    } catch (err) {
      if (err instanceof DebugFileParseError) throw new InvalidArgument(err.message, { file: [err.message] });
      throw err;
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
