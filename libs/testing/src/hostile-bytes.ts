import { crc32 } from 'node:zlib';

/**
 * Byte-level tools for the hostile-input tests: damage real packages the way a bad
 * disk, a cut download or an attacker would, and pack members into a standard zip. Everything
 * here is deterministic in its inputs, so a fast-check counterexample replays exactly.
 */

/** How a file is damaged; the numbers are raw draws, interpreted (modulo sizes) by `mutate`. */
export interface Mutation {
  kind: 'flip' | 'truncate' | 'overwrite' | 'zero' | 'duplicate-central-entry' | 'splice';
  /** Where, as a raw number: `region` says whether it counts from the start, the end, or anywhere. */
  at: number;
  region: 'head' | 'tail' | 'anywhere';
  /** How many bits / bytes. */
  span: number;
  /** Bytes written by `overwrite`, bit numbers for `flip`. */
  noise: number[];
}

export const MUTATION_KINDS: readonly Mutation['kind'][] = ['flip', 'truncate', 'overwrite', 'zero', 'duplicate-central-entry', 'splice'];

function offsetOf(size: number, m: Pick<Mutation, 'at' | 'region'>): number {
  if (size === 0) return 0;
  // Headers sit at the start of most formats; zip directories and UDIF trailers at the end.
  const window = Math.min(size, 64 * 1024);
  if (m.region === 'head') return m.at % window;
  if (m.region === 'tail') return size - 1 - (m.at % window);
  return m.at % size;
}

/** A damaged copy of `bytes` (the input is never changed). */
export function mutate(bytes: Buffer, m: Mutation): Buffer {
  const out = Buffer.from(bytes);
  if (out.length === 0) return out;
  const at = offsetOf(out.length, m);
  switch (m.kind) {
    case 'flip': {
      const flips = Math.max(1, m.span % 32);
      for (let i = 0; i < flips; i++) {
        const where = offsetOf(out.length, { at: m.at + i * 104_729, region: m.region });
        out[where]! ^= 1 << ((m.noise[i] ?? i) % 8);
      }
      return out;
    }
    case 'truncate':
      return out.subarray(0, at);
    case 'overwrite': {
      const noise = m.noise.length > 0 ? m.noise : [0xff];
      const length = Math.min(out.length - at, 1 + (m.span % 4096));
      for (let i = 0; i < length; i++) out[at + i] = noise[i % noise.length]! & 0xff;
      return out;
    }
    case 'zero':
      out.fill(0, at, Math.min(out.length, at + 1 + (m.span % 65536)));
      return out;
    case 'duplicate-central-entry':
      return duplicateCentralEntry(out, m.span) ?? out;
    case 'splice': {
      // A block of the file copied over another place: plausible-looking structures in the wrong spot.
      const from = offsetOf(out.length, { at: m.span * 31, region: 'anywhere' });
      const length = Math.min(1 + (m.span % 8192), out.length - from, out.length - at);
      out.copy(out, at, from, from + length);
      return out;
    }
  }
}

const EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const CENTRAL = 0x02014b50;

/**
 * The zip with one central-directory record repeated (the end record's counts and offsets fixed
 * up), as some broken or malicious archivers write; undefined when `zip` is no plain zip.
 */
export function duplicateCentralEntry(zip: Buffer, pick: number): Buffer | undefined {
  const eocd = zip.lastIndexOf(EOCD);
  if (eocd < 0 || eocd + 22 > zip.length) return undefined;
  const count = zip.readUInt16LE(eocd + 10);
  const cdSize = zip.readUInt32LE(eocd + 12);
  const cdOffset = zip.readUInt32LE(eocd + 16);
  if (count === 0 || count === 0xffff || cdOffset + cdSize > eocd) return undefined;
  const records: Array<[number, number]> = [];
  for (let at = cdOffset; at + 46 <= cdOffset + cdSize && records.length < count; ) {
    if (zip.readUInt32LE(at) !== CENTRAL) return undefined;
    const length = 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    records.push([at, at + length]);
    at += length;
  }
  const [start, end] = records[pick % records.length] ?? [0, 0];
  if (end === 0) return undefined;
  const record = zip.subarray(start, end);
  const cdEnd = cdOffset + cdSize;
  const out = Buffer.concat([zip.subarray(0, cdEnd), record, zip.subarray(cdEnd)]);
  const newEocd = eocd + record.length;
  out.writeUInt16LE(Math.min(0xfffe, count + 1), newEocd + 8);
  out.writeUInt16LE(Math.min(0xfffe, count + 1), newEocd + 10);
  out.writeUInt32LE(cdSize + record.length, newEocd + 12);
  return out;
}

/**
 * A standard zip (PKWARE APPNOTE, method 0 "stored", CRC-32 set) holding `members` as given —
 * names are not cleaned, so `../` and absolute names stay hostile. `unzip -t` accepts the result.
 */
export function storedZip(members: Array<{ name: string; data: Buffer | string }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const member of members) {
    const name = Buffer.from(member.name, 'utf8');
    const data = typeof member.data === 'string' ? Buffer.from(member.data, 'utf8') : member.data;
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(0x00210000, 10); // 1980-01-01 00:00
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(0x031e, 4); // made by Unix, 3.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(0x00210000, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** What a parse came to, within `ms`: a value, an error, or a hang (the work is left behind). */
export type Outcome<T> = { kind: 'value'; value: T } | { kind: 'error'; error: unknown } | { kind: 'hang'; ms: number };

export async function settleWithin<T>(work: Promise<T>, ms: number): Promise<Outcome<T>> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<Outcome<T>>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'hang', ms }), ms);
  });
  try {
    return await Promise.race([work.then((value): Outcome<T> => ({ kind: 'value', value }), (error: unknown): Outcome<T> => ({ kind: 'error', error })), hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** A ByteSource over a buffer that counts its closes (parsers must close what they are given). */
export class BufferByteSource {
  closes = 0;
  constructor(private readonly bytes: Buffer) {}

  get size(): number {
    return this.bytes.length;
  }

  async read(offset: number, length: number): Promise<Buffer> {
    return Buffer.from(this.bytes.subarray(offset, offset + length));
  }

  async close(): Promise<void> {
    this.closes += 1;
  }
}
