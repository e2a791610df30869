/**
 * UTF-16LE text from `data[start, end)`, decoded from whole code units only.
 *
 * Node 24 (to 24.21 at least) writes one byte past a heap allocation when it decodes
 * an odd number of bytes from an odd address (`StringBytes::Encode`, UCS2, unaligned
 * branch: nodejs/node#64697, open). Hostile packages give exactly that: CI's Node 24
 * run of hostile-input.property.test.ts died of "double free or corruption (!prev)"
 * with `Buffer::StringSlice<UCS2>` on the stack. A trailing odd byte is no text in
 * any case (Node drops it on the aligned path), so it is dropped here before Node
 * sees it. Every UTF-16 decode of package bytes goes through this function.
 */
export function utf16le(data: Buffer, start = 0, end = data.length): string {
  const from = Math.max(0, Math.min(start, data.length));
  const to = Math.max(from, Math.min(end, data.length));
  return data.toString('utf16le', from, to - ((to - from) % 2));
}
