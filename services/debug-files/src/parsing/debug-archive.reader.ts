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

/**
 * Fetches the uploaded object to a temporary file — streamed, hashing as it
 * goes, so memory stays flat whatever the size — reads its symbols and
 * removes the file. Not a debug archive: InvalidArgument (422) with the
 * parser's message, which says what was expected. Storage failures stay
 * Unavailable.
 */
export async function readDebugArchive(storage: ObjectStorage, objectKey: string, tmpDir = os.tmpdir()): Promise<ReadArchive> {
  const dir = await fs.mkdtemp(path.join(tmpDir, 'hangar-debug-file-'));
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
