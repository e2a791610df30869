import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ByteSource } from '../packages/byte-source';
import { RandomAccessFile } from '../packages/random-access-file';
import type { DebugMemberStore } from './debug-file.types';

/**
 * A member store in a local folder (`member-<index>`): for tools and tests that parse files on
 * disk. The debug-files service stores members in object storage instead.
 */
export function memberFolder(dir: string): DebugMemberStore & { pathOf(index: number): string } {
  const pathOf = (index: number) => join(dir, `member-${index}`);
  return {
    pathOf,
    put: (index, bytes) => pipeline(Readable.from(bytes), createWriteStream(pathOf(index))),
    open: (index): Promise<ByteSource> => RandomAccessFile.open(pathOf(index), 'member'),
  };
}
