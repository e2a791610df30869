import { createHash } from 'node:crypto';

/**
 * A UUID (version 5 layout) derived from a name: the same name always gives
 * the same id — for what an event makes again when it is redelivered (an
 * event of a pruned release, a delivery of a webhook), so it is made once.
 */
export function stableUuid(name: string): string {
  const hash = createHash('sha1').update(`hangar:${name}`, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
