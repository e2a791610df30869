import { createHash, type Hash } from 'node:crypto';

/** RFC 9562 name-based UUID (SHA-1), fed incrementally so the name can be a large file. */
export class Uuid5Hasher {
  private readonly hash: Hash;

  constructor(namespace: string) {
    this.hash = createHash('sha1').update(uuidBytes(namespace));
  }

  update(chunk: Buffer | string): this {
    this.hash.update(chunk);
    return this;
  }

  digest(): string {
    const bytes = this.hash.digest().subarray(0, 16);
    bytes[6] = (bytes[6]! & 0x0f) | 0x50; // version 5
    bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}

export function uuid5(namespace: string, name: Buffer | string): string {
  return new Uuid5Hasher(namespace).update(name).digest();
}

function uuidBytes(uuid: string): Buffer {
  const hex = uuid.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new TypeError(`not a UUID: ${uuid}`);
  return Buffer.from(hex, 'hex');
}
