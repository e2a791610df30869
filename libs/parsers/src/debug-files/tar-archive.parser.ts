import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { DebugFileParseError, InflationLimitError } from './debug-file-parse.error';
import { DEFAULT_DEBUG_FILE_LIMITS, type DebugFileLimits, type DebugSymbolEntry, type ParsedDebugFile, overRatio } from './debug-file.types';
import { MAX_ELF_MEMBERS } from './elf-archive.parser';
import { isElf, readElfIdentity } from './elf.reader';
import { ForwardReader, TruncatedInputError } from './forward.reader';
import { baseName, unsafeNameReason } from './zip-entries';

const BLOCK = 512;
const ELF_HEADER_BYTES = 52;
/** GNU long names and pax headers are a path or a few records; anything larger is not a name. */
const MAX_NAME_RECORD_BYTES = 64 * 1024;
const COPY_CHUNK = 1024 * 1024;

export type TarCompression = 'none' | 'gzip';

/** A ustar/GNU header block: the magic at 257 and a checksum that adds up. */
export function isTarHeader(block: Buffer): boolean {
  if (block.length < BLOCK || block.toString('latin1', 257, 262) !== 'ustar') return false;
  const stored = parseOctal(block.subarray(148, 156));
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return stored === sum;
}

/** Whether the file is a tar, plain or gzipped, from its first block (inflated for gzip). */
export async function tarCompressionOf(path: string, start: Buffer): Promise<TarCompression | undefined> {
  const gzip = start[0] === 0x1f && start[1] === 0x8b;
  const reader = new ForwardReader(byteStream(path, gzip ? 'gzip' : 'none', DEFAULT_DEBUG_FILE_LIMITS));
  try {
    return isTarHeader(await reader.read(0, BLOCK)) ? (gzip ? 'gzip' : 'none') : undefined;
  } catch {
    return undefined;
  } finally {
    await reader.close().catch(() => undefined);
  }
}

/**
 * The ELF files of a tar (`.tar` or `.tar.gz`: a Linux build's binaries and `.debug` files), read
 * front to back once — a gzip stream cannot be read by position — and each ELF member copied to
 * a file of its own in the folder `extractDir` makes. Other members are skipped as they stream
 * by; GNU long names and pax `path` records are honoured; the limits bound entries and bytes.
 */
export async function parseElfTar(path: string, compression: TarCompression, limits: DebugFileLimits, extractDir: () => Promise<string>): Promise<ParsedDebugFile> {
  const reader = new ForwardReader(byteStream(path, compression, limits));
  const extracted: { name: string; path: string; size: number }[] = [];
  try {
    let offset = 0;
    let entries = 0;
    let total = 0;
    let longName: string | undefined;
    for (;;) {
      const header = await readOrTruncated(reader, offset, BLOCK);
      if (header.every((byte) => byte === 0)) break;
      if (!isTarHeader(header)) throw new DebugFileParseError(`tar: a damaged header at byte ${offset}`);
      if (++entries > limits.maxEntries) throw new DebugFileParseError(`the archive holds more than the ${limits.maxEntries} entries allowed`);
      const type = String.fromCharCode(header[156]!);
      const size = entrySize(header.subarray(124, 136));
      const dataStart = offset + BLOCK;
      offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
      if (type === 'L' || type === 'x') {
        if (size > MAX_NAME_RECORD_BYTES) throw new DebugFileParseError(`tar: a name record of ${size} bytes`);
        const record = (await readOrTruncated(reader, dataStart, size)).toString('utf8');
        longName = type === 'L' ? record.replace(/\0+$/, '') : (paxPath(record) ?? longName);
        continue;
      }
      const name = longName ?? headerName(header);
      longName = undefined;
      if (type !== '0' && type !== '\0' && type !== '7') continue;
      const unsafe = unsafeNameReason(name);
      if (unsafe) throw new DebugFileParseError(`entry name ${JSON.stringify(name)} ${unsafe}`);
      if (size > limits.maxEntryBytes) throw new DebugFileParseError(`${name} is ${size} bytes, more than the ${limits.maxEntryBytes} allowed`);
      total += size;
      if (total > limits.maxTotalBytes) throw new InflationLimitError(`the archive's files add up to more than the ${limits.maxTotalBytes} bytes allowed`);
      if (size < ELF_HEADER_BYTES || !isElf(await readOrTruncated(reader, dataStart, 4))) continue;
      if (extracted.length >= MAX_ELF_MEMBERS) throw new DebugFileParseError(`the archive holds more than ${MAX_ELF_MEMBERS} ELF files; upload a build's symbols per archive`);
      const target = join(await extractDir(), `tar-member-${extracted.length}`);
      const file = await open(target, 'w');
      try {
        for (let at = 0; at < size; at += COPY_CHUNK) await file.write(await readOrTruncated(reader, dataStart + at, Math.min(COPY_CHUNK, size - at)));
      } finally {
        await file.close();
      }
      extracted.push({ name, path: target, size });
    }
  } finally {
    // Stopping a gzip stream early can surface its checksum error here: what was read stands.
    await reader.close().catch(() => undefined);
  }
  if (extracted.length === 0) throw new DebugFileParseError('the tar holds no ELF file');
  const entries: DebugSymbolEntry[] = [];
  for (const member of extracted) {
    const elf = await readElfIdentity(member.path);
    entries.push({
      uuid: elf.buildId,
      type: elf.arch,
      object: baseName(member.name),
      size: member.size,
      data: { build_id: elf.buildId, elf_type: elf.elfType, has_debug_info: elf.hasDebugInfo, has_code: elf.hasCode, path: member.name, ...(elf.debugLink ? { debug_link: elf.debugLink } : {}) },
      extractedPath: member.path,
    });
  }
  return { kind: 'elf', deviceType: 'linux', entries };
}

/**
 * The tar's bytes; a gzipped one's inflation counted as it goes and stopped (the stream errors
 * with InflationLimitError) the moment it crosses the total or the compression ratio.
 */
function byteStream(path: string, compression: TarCompression, limits: DebugFileLimits): AsyncIterable<Buffer> {
  const file = createReadStream(path);
  if (compression !== 'gzip') return file;
  let compressed = 0;
  let inflated = 0;
  file.on('data', (chunk: string | Buffer) => {
    compressed += chunk.length;
  });
  const gunzip = createGunzip();
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      inflated += chunk.length;
      if (inflated > limits.maxTotalBytes) return done(new InflationLimitError(`it inflates to more than the ${limits.maxTotalBytes} bytes allowed`));
      if (overRatio(inflated, compressed, limits)) return done(new InflationLimitError(`${compressed} bytes inflate to more than ${inflated}, more than ${limits.maxCompressionRatio} times (a decompression bomb?)`));
      done(null, chunk);
    },
  });
  const stop = (error: Error) => {
    file.destroy();
    gunzip.destroy();
    bounded.destroy(error);
  };
  file.once('error', stop);
  gunzip.once('error', stop);
  bounded.once('error', () => {
    file.destroy();
    gunzip.destroy();
  });
  return file.pipe(gunzip).pipe(bounded);
}

async function readOrTruncated(reader: ForwardReader, offset: number, length: number): Promise<Buffer> {
  try {
    return await reader.read(offset, length);
  } catch (error) {
    if (error instanceof TruncatedInputError) throw new DebugFileParseError('tar: truncated archive');
    // A damaged gzip stream (zlib's errors, code Z_*) is a bad upload, not a server fault. Not
    // `instanceof Error`: errors made inside Node's own modules may come from another realm.
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && code.startsWith('Z_')) throw new DebugFileParseError(`tar.gz: ${String(message)}`);
    throw error;
  }
}

/** `prefix/name` of a ustar header (NUL-terminated fields). */
function headerName(header: Buffer): string {
  const field = (from: number, to: number) => header.toString('utf8', from, to).replace(/\0.*$/s, '');
  const name = field(0, 100);
  const prefix = field(345, 500);
  return prefix ? `${prefix}/${name}` : name;
}

/** Octal digits (space or NUL padded), or GNU's base-256 for sizes past 8 GiB. */
function entrySize(field: Buffer): number {
  if (field[0]! & 0x80) {
    let value = 0;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i]!;
    if (!Number.isSafeInteger(value)) throw new DebugFileParseError('tar: an entry size past what can be counted');
    return value;
  }
  const value = parseOctal(field);
  if (value === undefined) throw new DebugFileParseError('tar: an entry size that is not a number');
  return value;
}

function parseOctal(field: Buffer): number | undefined {
  const text = field.toString('latin1').replace(/[\0 ]+$/g, '').trim();
  if (!/^[0-7]*$/.test(text)) return undefined;
  return text ? parseInt(text, 8) : 0;
}

/** The `path` record of a pax extended header (`<len> path=<value>\n` records). */
function paxPath(records: string): string | undefined {
  for (const line of records.split('\n')) {
    const match = /^\d+ path=(.*)$/s.exec(line);
    if (match) return match[1];
  }
  return undefined;
}
