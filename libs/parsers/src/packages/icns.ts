import { PNG } from 'pngjs';
import { isPng, pngSize } from './cgbi';

// Legacy 24-bit RLE icon types, their side length and the 8-bit mask that carries their alpha.
const LEGACY_TYPES: Record<string, { side: number; mask: string }> = {
  it32: { side: 128, mask: 't8mk' },
  ih32: { side: 48, mask: 'h8mk' },
  il32: { side: 32, mask: 'l8mk' },
  is32: { side: 16, mask: 's8mk' },
};

/**
 * The best PNG from an Apple .icns. Modern types (ic07–ic14…) embed a PNG or JPEG 2000; we take
 * the largest PNG. Older files (and libicns' output) only have RLE bitmaps, which we re-encode.
 */
export function largestIcnsPng(icns: Buffer): Buffer | undefined {
  const chunks = readIcnsChunks(icns);
  let best: { png: Buffer; pixels: number } | undefined;
  for (const data of chunks.values()) {
    if (!isPng(data)) continue;
    const size = pngSize(data);
    const pixels = size ? size.width * size.height : 0;
    if (!best || pixels > best.pixels) best = { png: data, pixels };
  }
  return best?.png ?? largestLegacyIcon(chunks);
}

function readIcnsChunks(icns: Buffer): Map<string, Buffer> {
  const chunks = new Map<string, Buffer>();
  if (icns.length < 8 || icns.toString('latin1', 0, 4) !== 'icns') return chunks;
  const end = Math.min(icns.readUInt32BE(4), icns.length);
  let offset = 8;
  while (offset + 8 <= end) {
    const length = icns.readUInt32BE(offset + 4);
    if (length < 8 || offset + length > end) break;
    chunks.set(icns.toString('latin1', offset, offset + 4), icns.subarray(offset + 8, offset + length));
    offset += length;
  }
  return chunks;
}

function largestLegacyIcon(chunks: Map<string, Buffer>): Buffer | undefined {
  for (const [type, { side, mask }] of Object.entries(LEGACY_TYPES)) {
    const data = chunks.get(type);
    if (!data) continue;
    // it32 data starts with four zero bytes that are not part of the RLE stream.
    const rgb = unpackRle(type === 'it32' ? data.subarray(4) : data, side * side * 3);
    if (!rgb) continue;
    const alpha = chunks.get(mask);
    const png = new PNG({ width: side, height: side });
    const plane = side * side;
    for (let i = 0; i < plane; i++) {
      png.data[i * 4] = rgb[i] as number;
      png.data[i * 4 + 1] = rgb[plane + i] as number;
      png.data[i * 4 + 2] = rgb[2 * plane + i] as number;
      png.data[i * 4 + 3] = alpha && alpha.length >= plane ? (alpha[i] as number) : 255;
    }
    return PNG.sync.write(png);
  }
  return undefined;
}

/** Apple's icon RLE: n < 0x80 copies n+1 bytes, otherwise repeats the next byte n-125 times. */
function unpackRle(data: Buffer, expected: number): Buffer | undefined {
  const out = Buffer.alloc(expected);
  let written = 0;
  let offset = 0;
  while (written < expected && offset < data.length) {
    const control = data[offset++] as number;
    if (control < 0x80) {
      const count = control + 1;
      if (offset + count > data.length || written + count > expected) return undefined;
      data.copy(out, written, offset, offset + count);
      offset += count;
      written += count;
    } else {
      const count = control - 125;
      if (offset >= data.length || written + count > expected) return undefined;
      out.fill(data[offset++] as number, written, written + count);
      written += count;
    }
  }
  return written === expected ? out : undefined;
}
