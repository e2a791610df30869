/**
 * The distinct clients of one release on one day, in at most 16 KiB however
 * many there are (docs/decisions.md, "Unique clients"): a document per
 * (release, day) read and written once per counted batch, where a claim row
 * per client had cost more than 2 % of a download (docs/performance.md).
 *
 * Up to SPARSE_LIMIT clients it is a sorted list of 32 bits of each and
 * the count is exact (two of 4,096 clients share a hash with odds of about
 * 1 in 500). Past that it is a HyperLogLog of 2^14 registers over 64-bit
 * hashes — a standard error of 0.81 % — estimated with Ertl's improved raw
 * estimator ("New cardinality estimation algorithms for HyperLogLog
 * sketches", 2017), which needs no bias tables or range switches. Adding a
 * client twice changes nothing, so a redelivered batch cannot count anyone
 * twice.
 */
export class UniqueClients {
  private constructor(
    /** The sparse form: 32 bits of each client's hash, as signed integers; null once dense. */
    private sparse: Set<number> | null,
    /** The dense form: a register per bucket, the longest run of zeros seen there plus one. */
    private registers: Uint8Array | null,
  ) {}

  static empty(): UniqueClients {
    return new UniqueClients(new Set(), null);
  }

  /** Reads what `toBuffer` wrote; null or unreadable bytes start empty (and are replaced when saved). */
  static from(stored: Buffer | null | undefined): UniqueClients {
    if (!stored || stored.length === 0) return UniqueClients.empty();
    const form = stored[0];
    if (form === SPARSE && (stored.length - 1) % 4 === 0) {
      const hashes = new Set<number>();
      for (let at = 1; at < stored.length; at += 4) hashes.add(stored.readInt32BE(at));
      return new UniqueClients(hashes, null);
    }
    if (form === DENSE && stored.length === 1 + REGISTERS) return new UniqueClients(null, Uint8Array.from(stored.subarray(1)));
    return UniqueClients.empty();
  }

  /** Adds a client (its salted hash, as the gateway sends it); answers whether anything changed. */
  add(client: string): boolean {
    const [high, low] = hash64(client);
    if (this.sparse) {
      const key = high | 0; // held signed: small integers, where unsigned ones past 2^31 are boxed doubles
      if (this.sparse.has(key)) return false;
      this.sparse.add(key);
      if (this.sparse.size > SPARSE_LIMIT) this.densify();
      return true;
    }
    return this.raise(high >>> (32 - PRECISION), rankOf(high, low));
  }

  /** How many distinct clients: exact while sparse, estimated (±0.81 %) after. */
  get count(): number {
    return this.sparse ? this.sparse.size : Math.round(estimate(this.registers!));
  }

  get isExact(): boolean {
    return this.sparse !== null;
  }

  toBuffer(): Buffer {
    if (this.registers) return Buffer.concat([Buffer.of(DENSE), this.registers]);
    const sorted = Int32Array.from(this.sparse!).sort();
    const out = Buffer.alloc(1 + sorted.length * 4);
    out[0] = SPARSE;
    sorted.forEach((hash, i) => out.writeInt32BE(hash, 1 + i * 4));
    return out;
  }

  private densify(): void {
    this.registers = new Uint8Array(REGISTERS);
    // Only 32 bits of each hash were kept: ranks past the 18 left after the bucket read as 19,
    // an error for one client in 2^18 at most, and only in the largest registers.
    for (const key of this.sparse!) this.raise(key >>> (32 - PRECISION), rankOf(key >>> 0, null));
    this.sparse = null;
  }

  private raise(bucket: number, rank: number): boolean {
    if (this.registers![bucket]! >= rank) return false;
    this.registers![bucket] = rank;
    return true;
  }
}

const SPARSE = 1;
const DENSE = 2;
/** 2^14 registers: 16 KiB dense, a standard error of 1.04 / sqrt(2^14) = 0.81 %. */
const PRECISION = 14;
const REGISTERS = 1 << PRECISION;
/** 4,096 hashes of 4 bytes: the sparse list never outgrows the dense registers. */
export const SPARSE_LIMIT = REGISTERS / 4;
/** Hash bits after the bucket's: a register holds at most BITS_AFTER + 1. */
const BITS_AFTER = 64 - PRECISION;

/**
 * 64 well-mixed bits of a client, as two unsigned 32-bit words. The client is already a salted
 * HMAC from the gateway, so no cryptographic hash is needed — SHA-256 here cost 2–4 µs a
 * client, more than the rest of counting one. This is cyrb53's mixing (bryc, public domain):
 * two multiplicative lanes over the characters, each finished with the other.
 */
function hash64(text: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

/** The position of the first 1 in the bits after the bucket's (1 for a leading 1), from the hash's high and low words. */
function rankOf(high: number, low: number | null): number {
  const rest = high & ((1 << (32 - PRECISION)) - 1);
  if (rest !== 0) return Math.clz32(rest) - PRECISION + 1;
  if (low === null) return 32 - PRECISION + 1;
  return 32 - PRECISION + Math.clz32(low) + 1; // a zero low word reads 32: BITS_AFTER + 1
}

/** Ertl's improved raw estimator (Algorithm 6 of the paper) over the registers' histogram. */
function estimate(registers: Uint8Array): number {
  const m = registers.length;
  const histogram = new Float64Array(BITS_AFTER + 2);
  for (let i = 0; i < m; i += 1) histogram[registers[i]!]! += 1;
  let z = m * tau(1 - histogram[BITS_AFTER + 1]! / m);
  for (let k = BITS_AFTER; k >= 1; k -= 1) z = 0.5 * (z + histogram[k]!);
  z += m * sigma(histogram[0]! / m);
  return (m * m) / (2 * Math.LN2 * z);
}

function sigma(x: number): number {
  if (x === 1) return Infinity;
  let y = 1;
  let z = x;
  let previous: number;
  do {
    x *= x;
    previous = z;
    z += x * y;
    y += y;
  } while (z !== previous);
  return z;
}

function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let z = 1 - x;
  let previous: number;
  do {
    x = Math.sqrt(x);
    previous = z;
    y *= 0.5;
    z -= (1 - x) ** 2 * y;
  } while (z !== previous);
  return z / 3;
}
