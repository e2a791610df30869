import { createHash } from 'node:crypto';
import fs from 'node:fs';

/** Hex SHA-256 of a file, read as a stream (builds can be gigabytes). */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
