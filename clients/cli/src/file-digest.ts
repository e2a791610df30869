import { createHash } from 'node:crypto';
import fs from 'node:fs';

/** Hex SHA-256 of a file, read as a stream (builds can be gigabytes). */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const SAMPLES = 64;
const SAMPLE_BYTES = 64 * 1024;

/** The byte ranges `contentSample` reads: the first and last 64 KiB and 62 evenly between. */
export function sampledRanges(size: number): { offset: number; length: number }[] {
  if (size <= SAMPLES * SAMPLE_BYTES) return [{ offset: 0, length: size }];
  const step = (size - SAMPLE_BYTES) / (SAMPLES - 1);
  return Array.from({ length: SAMPLES }, (_, i) => ({ offset: Math.round(i * step), length: SAMPLE_BYTES }));
}

/**
 * Hex SHA-256 of the file's size and 4 MiB of it (every byte of a file up to that size): what
 * resume state is kept by. It is read in milliseconds, so the upload starts at once and the
 * whole file's SHA-256 is computed while its bytes go out, not before (≈ 3 s a GiB here). A
 * file that differs only outside the samples resumes bytes of the other file: the server's
 * SHA-256 then refuses the finishing call, and the CLI sends the file again from the start.
 */
export async function contentSample(file: string, size: number): Promise<string> {
  const hash = createHash('sha256').update(`${size}:`);
  const handle = await fs.promises.open(file, 'r');
  try {
    for (const { offset, length } of sampledRanges(size)) {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}
