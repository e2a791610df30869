import { pipeline, type Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { ByteSource } from '../packages/byte-source';
import { isSourceFailure } from '../packages/source-failure';
import { startsWithTarMember, tarMembers } from '../packages/tar-reader';
import { DebugFileParseError, InflationLimitError, isSystemError } from './debug-file-parse.error';
import { DEFAULT_DEBUG_FILE_LIMITS, type DebugFileLimits, type DebugMemberStore, type DebugSymbolEntry, type ParsedDebugFile, overRatio } from './debug-file.types';
import { streamOf } from './debug-source';
import { ELF_HEADER_BYTES, MAX_ELF_MEMBERS, storedElfEntry } from './elf-archive.parser';
import { isElf } from './elf.reader';
import { unsafeNameReason } from './zip-entries';

/** Enough of the start to hold a first header behind a long name or pax record. */
const SNIFF_BYTES = 64 * 1024;
const ELF_MAGIC_BYTES = 4;

export type TarCompression = 'none' | 'gzip';

/** Whether the file is a tar, plain or gzipped, from its first member's header (inflated for gzip). */
export async function tarCompressionOf(source: ByteSource, start: Buffer): Promise<TarCompression | undefined> {
  const compression = start[0] === 0x1f && start[1] === 0x8b ? 'gzip' : 'none';
  return (await startsWithTarMember(await prefixOf(byteStream(source, compression, DEFAULT_DEBUG_FILE_LIMITS), SNIFF_BYTES))) ? compression : undefined;
}

/**
 * The ELF files of a tar (`.tar` or `.tar.gz`: a Linux build's binaries and `.debug` files), read
 * front to back once — a gzip stream cannot be read by position — each ELF member streamed into
 * the member store (`store()`, asked for at the first) as it passes and its identity then read
 * from there. Other members are skipped
 * as they stream by; the limits bound entries and bytes.
 */
export async function parseElfTar(source: ByteSource, compression: TarCompression, limits: DebugFileLimits, store: () => DebugMemberStore): Promise<ParsedDebugFile> {
  const stored: { name: string; size: number }[] = [];
  let entries = 0;
  let total = 0;
  try {
    for await (const { header, body } of tarMembers(byteStream(source, compression, limits))) {
      if (++entries > limits.maxEntries) throw new DebugFileParseError(`the archive holds more than the ${limits.maxEntries} entries allowed`);
      if (header.type !== 'file' && header.type !== 'contiguous-file') continue;
      const { name, size } = header;
      const unsafe = unsafeNameReason(name);
      if (unsafe) throw new DebugFileParseError(`entry name ${JSON.stringify(name)} ${unsafe}`);
      if (size > limits.maxEntryBytes) throw new DebugFileParseError(`${name} is ${size} bytes, more than the ${limits.maxEntryBytes} allowed`);
      total += size;
      if (total > limits.maxTotalBytes) throw new InflationLimitError(`the archive's files add up to more than the ${limits.maxTotalBytes} bytes allowed`);
      if (size < ELF_HEADER_BYTES) continue;
      if (await storeIfElf(body, store, stored.length)) stored.push({ name, size });
    }
  } catch (error) {
    throw asParseError(error);
  }
  if (stored.length === 0) throw new DebugFileParseError('the tar holds no ELF file');
  const found: DebugSymbolEntry[] = [];
  for (const [index, member] of stored.entries()) found.push(await storedElfEntry(store(), index, member.name, member.size));
  return { kind: 'elf', deviceType: 'linux', entries: found };
}

/**
 * Streams a member into the store as entry `index` when its first bytes are ELF; reads past it
 * otherwise (a member's body is read to its end: see TarMember).
 */
async function storeIfElf(body: AsyncIterable<Buffer>, store: () => DebugMemberStore, index: number): Promise<boolean> {
  const chunks = body[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  while (head.length < ELF_MAGIC_BYTES) {
    const next = await chunks.next();
    if (next.done) return false;
    head = Buffer.concat([head, next.value]);
  }
  if (!isElf(head)) {
    for (let next = await chunks.next(); !next.done; next = await chunks.next());
    return false;
  }
  if (index >= MAX_ELF_MEMBERS) throw new DebugFileParseError(`the archive holds more than ${MAX_ELF_MEMBERS} ELF files; upload a build's symbols per archive`);
  async function* member(): AsyncGenerator<Buffer> {
    yield head;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }
  await store().put(index, member());
  return true;
}

/**
 * The tar's bytes; a gzipped one's inflation counted as it goes and stopped (the stream errors
 * with InflationLimitError) the moment it crosses the total or the compression ratio. Destroying
 * the stream handed out stops the reads and the inflater behind it.
 */
function byteStream(source: ByteSource, compression: TarCompression, limits: DebugFileLimits): Readable {
  const file = streamOf(source);
  if (compression !== 'gzip') return file;
  let compressed = 0;
  let inflated = 0;
  file.on('data', (chunk: string | Buffer) => {
    compressed += chunk.length;
  });
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      inflated += chunk.length;
      if (inflated > limits.maxTotalBytes) return done(new InflationLimitError(`it inflates to more than the ${limits.maxTotalBytes} bytes allowed`));
      if (overRatio(inflated, compressed, limits)) return done(new InflationLimitError(`${compressed} bytes inflate to more than ${inflated}, more than ${limits.maxCompressionRatio} times (a decompression bomb?)`));
      done(null, chunk);
    },
  });
  // Errors reach the reader through `bounded`, which the pipeline destroys with them.
  return pipeline(file, createGunzip(), bounded, () => undefined);
}

/** The first `length` bytes of a stream (fewer when it ends or breaks sooner); the rest is never read. */
async function prefixOf(stream: Readable, length: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      total += (chunk as Buffer).length;
      if (total >= length) break;
    }
  } catch {
    // A damaged gzip stream: what was read is judged.
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, length);
}

function asParseError(error: unknown): Error {
  // The upload's own refusals and the server's I/O errors (the source's, the store's) pass as they are.
  // A TypeError is this code's own mistake (a parse asked to store members without a store).
  if (error instanceof DebugFileParseError || error instanceof TypeError || isSystemError(error) || isSourceFailure(error)) return error as Error;
  // A damaged gzip stream (zlib's errors, code Z_*) is a bad upload, not a server fault. Not
  // `instanceof Error`: errors made inside Node's own modules may come from another realm.
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && code.startsWith('Z_')) return new DebugFileParseError(`tar.gz: ${String(message)}`, { cause: error });
  // What is left is tar-stream's word on the archive: a damaged header, data that ends too soon.
  return new DebugFileParseError(`tar: ${typeof message === 'string' ? message : String(error)}`, { cause: error });
}
