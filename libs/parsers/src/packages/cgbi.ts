import { PNG } from 'pngjs';
import { crc32, deflateSync, inflateRawSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// App icons are at most 1024×1024; anything far bigger is not an icon and would cost real memory.
const MAX_SIDE = 4096;

interface Chunk {
  type: string;
  data: Buffer;
}

export function isPng(buffer: Buffer): boolean {
  return buffer.length > 8 && buffer.subarray(0, 8).equals(PNG_SIGNATURE);
}

export function isCgbiPng(buffer: Buffer): boolean {
  return isPng(buffer) && buffer.toString('latin1', 12, 16) === 'CgBI';
}

/**
 * Turns Xcode's "crushed" PNG (CgBI) back into a PNG browsers can show. Xcode drops the zlib
 * wrapper around IDAT, stores pixels as BGRA and premultiplies them by alpha; we undo each step.
 * Standard PNGs pass through untouched. Returns undefined when the data is not a usable PNG.
 */
export function normalizePng(buffer: Buffer): Buffer | undefined {
  if (!isPng(buffer)) return undefined;
  if (!isCgbiPng(buffer)) return buffer;
  try {
    const chunks = readChunks(buffer);
    const header = chunks.find((chunk) => chunk.type === 'IHDR');
    if (!header || header.data.length < 13) return undefined;
    const width = header.data.readUInt32BE(0);
    const height = header.data.readUInt32BE(4);
    const bitDepth = header.data[8];
    const colorType = header.data[9];
    const interlace = header.data[12];
    // Xcode only ever emits 8-bit RGBA, non-interlaced; anything else we cannot fix reliably.
    if (bitDepth !== 8 || colorType !== 6 || interlace !== 0) return undefined;
    if (width === 0 || height === 0 || width > MAX_SIDE || height > MAX_SIDE) return undefined;

    const expected = height * (1 + width * 4);
    const compressed = Buffer.concat(chunks.filter((chunk) => chunk.type === 'IDAT').map((chunk) => chunk.data));
    const filtered = inflateRawSync(compressed, { maxOutputLength: expected });
    if (filtered.length !== expected) return undefined;

    // Re-wrap as a regular PNG so pngjs undoes the scanline filters for us.
    const rewrapped = writePng([
      { type: 'IHDR', data: header.data },
      { type: 'IDAT', data: deflateSync(filtered) },
      { type: 'IEND', data: Buffer.alloc(0) },
    ]);
    const image = PNG.sync.read(rewrapped);
    unpremultiplyBgra(image.data);
    return PNG.sync.write(image, { colorType: 6 });
  } catch {
    return undefined;
  }
}

function unpremultiplyBgra(pixels: Buffer): void {
  for (let i = 0; i + 3 < pixels.length; i += 4) {
    const blue = pixels[i] as number;
    const green = pixels[i + 1] as number;
    const red = pixels[i + 2] as number;
    const alpha = pixels[i + 3] as number;
    if (alpha === 0) {
      pixels[i] = 0;
      pixels[i + 1] = 0;
      pixels[i + 2] = 0;
      continue;
    }
    pixels[i] = Math.min(255, Math.round((red * 255) / alpha));
    pixels[i + 1] = Math.min(255, Math.round((green * 255) / alpha));
    pixels[i + 2] = Math.min(255, Math.round((blue * 255) / alpha));
  }
}

function readChunks(buffer: Buffer): Chunk[] {
  const chunks: Chunk[] = [];
  let offset = 8;
  while (offset + 12 <= buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > buffer.length) throw new Error('truncated PNG chunk');
    chunks.push({ type, data: buffer.subarray(offset + 8, offset + 8 + length) });
    offset = end;
    if (type === 'IEND') break;
  }
  return chunks;
}

function writePng(chunks: Chunk[]): Buffer {
  const parts: Buffer[] = [PNG_SIGNATURE];
  for (const chunk of chunks) {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(chunk.data.length, 0);
    head.write(chunk.type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), chunk.data])), 0);
    parts.push(head, chunk.data, crc);
  }
  return Buffer.concat(parts);
}

/** Pixel size from the IHDR chunk, used to pick the largest icon without decoding every file. */
export function pngSize(buffer: Buffer): { width: number; height: number } | undefined {
  if (!isPng(buffer)) return undefined;
  const ihdr = buffer.indexOf('IHDR', 8, 'latin1');
  if (ihdr < 0 || ihdr + 12 > buffer.length) return undefined;
  return { width: buffer.readUInt32BE(ihdr + 4), height: buffer.readUInt32BE(ihdr + 8) };
}
