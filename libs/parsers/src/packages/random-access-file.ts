import { open, type FileHandle } from 'node:fs/promises';
import type { ByteSource } from './byte-source';
import { PackageParseError } from './package.errors';

/** Positional reads over a file so parsers touch only the bytes they need, never the whole file. */
export class RandomAccessFile implements ByteSource {
  private closed = false;

  private constructor(
    private readonly handle: FileHandle,
    readonly size: number,
    private readonly label: string,
  ) {}

  static async open(filePath: string, label: string): Promise<RandomAccessFile> {
    const handle = await open(filePath, 'r');
    try {
      const { size } = await handle.stat();
      return new RandomAccessFile(handle, size, label);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Reads exactly `length` bytes; a short read means the file is truncated, which is a parse error. */
  async read(offset: number, length: number): Promise<Buffer> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > this.size) {
      throw new PackageParseError(`${this.label}: truncated file (wanted ${length} bytes at offset ${offset} of ${this.size})`);
    }
    const buffer = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await this.handle.read(buffer, done, length - done, offset + done);
      if (bytesRead === 0) throw new PackageParseError(`${this.label}: truncated file`);
      done += bytesRead;
    }
    return buffer;
  }

  /** Like read() but clipped to the end of the file, for sniffing headers of files of any size. */
  async readUpTo(offset: number, length: number): Promise<Buffer> {
    const available = Math.max(0, Math.min(length, this.size - offset));
    return this.read(offset, available);
  }

  /** Idempotent: a parse closes what it was given, and its caller may close it again. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}
