import { createHash } from 'node:crypto';

/** S3's smallest part but the last. */
export const S3_MIN_PART = 5 * 1024 * 1024;
/** S3's most parts in one upload. */
export const S3_MAX_PARTS = 10_000;

/**
 * The first S3 part number of a partial whose bytes start at `start` of a file of `size` bytes,
 * written in parts of `partSize`; undefined when it cannot go into the file's one multipart upload
 * (it then gets one of its own, joined by a copy inside S3 as any tus partial is).
 *
 * Numbers come from the place alone — one every S3_MIN_PART bytes — so partials need not know of
 * each other: a partial of length L uses ceil(L / partSize) numbers, and the next one starts
 * floor(L / S3_MIN_PART) ≥ that many numbers later, as long as every part but the file's last
 * holds S3_MIN_PART bytes (partSize ≥ S3_MIN_PART; a partial's short last part only if it ends
 * the file). Gaps between numbers are allowed: S3 joins the parts a completion lists, in order.
 */
export function firstPartAt(start: number, length: number, size: number, partSize: number): number | undefined {
  if (partSize < S3_MIN_PART || length <= 0 || start < 0 || start + length > size) return undefined;
  const endsFile = start + length === size;
  const shortPart = length % partSize;
  if (!endsFile && shortPart !== 0 && shortPart < S3_MIN_PART) return undefined;
  const firstPart = 1 + Math.floor(start / S3_MIN_PART);
  const lastPart = firstPart + Math.ceil(length / partSize) - 1;
  return lastPart <= S3_MAX_PARTS ? firstPart : undefined;
}

/**
 * The key of a caller's parallel upload named `name` by its client. A dot, which no upload id has,
 * keeps it apart from upload records; the owner in it keeps anyone else's partials out of it.
 */
export function groupKey(ownerId: number, name: string): string {
  return `group.${ownerId}.${createHash('sha256').update(name).digest('hex').slice(0, 40)}`;
}
