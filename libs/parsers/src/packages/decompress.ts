import { Decompress as ZstdStream } from 'fzstd';
import { gunzipSync } from 'node:zlib';
import { XzReadableStream } from 'xz-decompress';
import { PackageParseError } from './package.errors';

export type Compression = 'none' | 'gzip' | 'xz' | 'zstd';

/** Which codec a member's name (control.tar.xz etc.) or magic bytes point at. */
export function compressionOf(data: Buffer): Compression {
  if (data[0] === 0x1f && data[1] === 0x8b) return 'gzip';
  if (data.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) return 'xz';
  if (data.readUInt32LE(0) === 0xfd2fb528) return 'zstd';
  return 'none';
}

/** Decompresses a small metadata blob, failing instead of growing past `limit` (decompression bombs). */
export async function decompressBounded(data: Buffer, limit: number, label: string): Promise<Buffer> {
  const kind = data.length >= 6 ? compressionOf(data) : 'none';
  try {
    switch (kind) {
      case 'none':
        return data;
      case 'gzip':
        return gunzipSync(data, { maxOutputLength: limit });
      case 'zstd':
        return zstdBounded(data, limit);
      case 'xz':
        return await xzBounded(data, limit);
    }
  } catch (error) {
    if (error instanceof PackageParseError) throw error;
    throw new PackageParseError(`${label}: cannot decompress ${kind} data (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
}

/** Streams so output is counted block by block; fzstd's one-shot API trusts the frame's declared size. */
export function zstdBounded(data: Buffer, limit: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const stream = new ZstdStream((chunk) => {
    total += chunk.length;
    if (total > limit) throw new PackageParseError(`zstd data inflates past the ${limit}-byte limit`);
    chunks.push(Buffer.from(chunk));
  });
  stream.push(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), true);
  return Buffer.concat(chunks, total);
}

async function xzBounded(data: Buffer, limit: number): Promise<Buffer> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(data));
      controller.close();
    },
  });
  const reader = new XzReadableStream(source).getReader();
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new PackageParseError(`xz data inflates past the ${limit}-byte limit`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks, total);
}
