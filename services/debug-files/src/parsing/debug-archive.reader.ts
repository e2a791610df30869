import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidArgument, PayloadTooLarge } from '@hangar/errors';
import { DebugFileLimits, DebugFileParseError, InflationLimitError, ParsedDebugFile, parseDebugFile } from '@hangar/parsers';
import type { ObjectStorage } from '@hangar/storage';
import { memberKeyOf } from '../data/debug-files.repository';

export interface ReadArchive {
  parsed: ParsedDebugFile;
  /** Per entry of `parsed`: where its extracted member was stored, if it was (ELF files of a zip). */
  memberKeys: (string | undefined)[];
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
 * parser's message, which says what was expected; one that would inflate
 * past `limits` (decompression bombs): PayloadTooLarge (413). Storage
 * failures stay Unavailable.
 */
export async function readDebugArchive(storage: ObjectStorage, objectKey: string, tmpDir = os.tmpdir(), limits: Partial<DebugFileLimits> = {}): Promise<ReadArchive> {
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
    let parsed: ParsedDebugFile;
    try {
      parsed = await parseDebugFile(file, limits);
    } catch (err) {
      // A bomb is 413 (too large once inflated), not a malformed upload.
      if (err instanceof InflationLimitError) throw new PayloadTooLarge(err.message);
      if (err instanceof DebugFileParseError) throw new InvalidArgument(err.message, { file: [err.message] });
      throw err;
    }
    return { parsed, checksum, size, memberKeys: await storeMembers(storage, objectKey, parsed) };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Stores each extracted member beside the archive (before the temporary folder goes), so a
 * symbol server can redirect to the file itself. If one fails, those stored are removed again.
 */
async function storeMembers(storage: ObjectStorage, objectKey: string, parsed: ParsedDebugFile): Promise<(string | undefined)[]> {
  const keys: (string | undefined)[] = [];
  try {
    for (const [index, entry] of parsed.entries.entries()) {
      if (!entry.extractedPath) {
        keys.push(undefined);
        continue;
      }
      const key = memberKeyOf(objectKey, index);
      await storage.putStream(key, createReadStream(entry.extractedPath), { contentType: 'application/octet-stream' });
      keys.push(key);
    }
    return keys;
  } catch (err) {
    await removeMembers(storage, keys);
    throw err;
  }
}

/** Best effort: what is left is an orphan the janitor removes once its archive is unreferenced. */
export async function removeMembers(storage: ObjectStorage, keys: readonly (string | undefined)[]): Promise<void> {
  for (const key of keys) if (key) await storage.delete(key).catch(() => undefined);
}
