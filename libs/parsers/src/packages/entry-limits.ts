import { PackageParseError } from './package.errors';

// Deflate cannot do better than about 1032:1, so anything claiming more is a bomb or a lie.
const MAX_RATIO = 1100;
// Tiny entries may legitimately have odd ratios (e.g. a zero-byte file stored with a header).
const RATIO_CHECK_FLOOR = 1024 * 1024;

/** Refuses an archive member before it is inflated when its declared size is unreasonable. */
export function assertEntrySize(label: string, name: string, declaredSize: number, compressedSize: number | undefined, maxEntrySize: number): void {
  if (declaredSize > maxEntrySize) {
    throw new PackageParseError(`${label}: entry "${name}" declares ${declaredSize} bytes, above the ${maxEntrySize}-byte limit`);
  }
  if (compressedSize !== undefined && declaredSize > RATIO_CHECK_FLOOR && declaredSize > compressedSize * MAX_RATIO) {
    throw new PackageParseError(`${label}: entry "${name}" has an impossible compression ratio (${compressedSize} → ${declaredSize} bytes)`);
  }
}
