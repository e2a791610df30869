import { hash } from 'node:crypto';

const BLOCK_BYTES = 64;

/**
 * HMAC-SHA256 (RFC 2104) made of two one-shot hashes, its padded keys computed
 * once. `createHmac` builds an OpenSSL MAC context on every call: 18–24 µs on
 * Node 24, the image's runtime, against 4–5 on Node 20 — a download's client
 * hash cost more than all the rest of counting it. This is 4–6 µs on both, and
 * the same bytes (tested against createHmac).
 */
export class HmacSha256 {
  private readonly innerPad: Buffer;
  private readonly outerPad: Buffer;

  constructor(key: Buffer) {
    const block = Buffer.alloc(BLOCK_BYTES);
    (key.length > BLOCK_BYTES ? hash('sha256', key, 'buffer') : key).copy(block);
    this.innerPad = block.map((byte) => byte ^ 0x36) as Buffer;
    this.outerPad = block.map((byte) => byte ^ 0x5c) as Buffer;
  }

  /** The MAC of `message` (UTF-8), base64url. */
  digest(message: string): string {
    const inner = hash('sha256', Buffer.concat([this.innerPad, Buffer.from(message)]), 'buffer');
    return hash('sha256', Buffer.concat([this.outerPad, inner]), 'base64url');
  }
}
