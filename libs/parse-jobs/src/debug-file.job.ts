import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { DebugFileParseError, type DebugMemberStore, InflationLimitError, parseDebugFile } from '@hangar/parsers';
import type { ObjectStorage } from '@hangar/storage';
import { type DebugFileParseReply, type DebugFileParseRequest, memberKeyOf } from './contract';

/**
 * Reads an uploaded debug file from storage by range — a zip's directory and the members it
 * needs, an ELF file's headers — while one sequential GET beside it hashes the stored bytes; the
 * members clients fetch on their own (ELF files, dSYM slices) stream from the archive straight
 * into storage beside it. Nothing touches a local disk, and memory stays that of the range
 * reader's cache and the parts in flight, whatever the archive's size.
 *
 * Not a debug file: 'corrupt' with the parser's message, which says what was expected; one that
 * would inflate past the limits (a decompression bomb): 'too_large'. A storage failure throws
 * (answered 'unavailable'), and any member already stored is removed first.
 */
export async function parseDebugFileObject(storage: ObjectStorage, request: DebugFileParseRequest): Promise<DebugFileParseReply> {
  const { objectKey, limits } = request;
  const members = storedMembers(storage, objectKey);
  const source = await storage.openRangeSource(objectKey);
  const hashed = sha256Of(storage, objectKey);
  // Awaited in every path below; never an unhandled rejection while the parse runs.
  hashed.catch(() => undefined);
  try {
    const parsed = await parseDebugFile(source, { limits, members: members.store });
    const { checksum, size } = await hashed;
    return { ok: true, parsed, checksum, size, memberKeys: parsed.entries.map((entry, index) => (entry.stored ? memberKeyOf(objectKey, index) : null)) };
  } catch (err) {
    await members.removeAll();
    await hashed.catch(() => undefined);
    // A bomb is 413 (too large once inflated), not a malformed upload.
    if (err instanceof InflationLimitError) return { ok: false, kind: 'too_large', message: err.message };
    if (err instanceof DebugFileParseError) return { ok: false, kind: 'corrupt', message: err.message };
    throw err;
  } finally {
    await source.close();
  }
}

/** The member store of one archive: objects beside it in storage, removable again if the parse fails. */
function storedMembers(storage: ObjectStorage, objectKey: string): { store: DebugMemberStore; removeAll(): Promise<void> } {
  const keys = new Set<string>();
  return {
    store: {
      async put(index, bytes) {
        const key = memberKeyOf(objectKey, index);
        keys.add(key);
        await storage.putStream(key, Readable.from(bytes, { objectMode: false }), { contentType: 'application/octet-stream' });
      },
      open: (index) => storage.openRangeSource(memberKeyOf(objectKey, index)),
    },
    removeAll: () => removeMembers(storage, [...keys]),
  };
}

/**
 * Removes stored members (a failed parse's, or those of an upload the debug-files service refused).
 * Best effort: what is left is an orphan the janitor removes once its archive is unreferenced.
 */
export async function removeMembers(storage: ObjectStorage, keys: readonly (string | null | undefined)[]): Promise<void> {
  for (const key of keys) if (key) await storage.delete(key).catch(() => undefined);
}

/** SHA-256 and length of the stored object, streamed through one GET: the content's identity for duplicates. */
async function sha256Of(storage: ObjectStorage, objectKey: string): Promise<{ checksum: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of await storage.getStream(objectKey)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { checksum: hash.digest('hex'), size };
}
