import type { SourceReader } from '../byte-source';
import type { ZipArchive } from '../zip-reader';
import { summarizeCertificate } from './certificate-summary';
import { cmsCertificates } from './der';
import { MAX_CERTIFICATES, type CertificateSummary, type PackageSigning } from './signing.types';

// IDs of the APK Signing Block pairs (apksigner's ApkSigningBlockUtils / V3SchemeConstants).
const SCHEME_IDS = new Map<number, string>([
  [0x7109871a, 'v2'],
  [0xf05368c0, 'v3'],
  [0x1b93ad61, 'v3.1'],
]);
const BLOCK_MAGIC = 'APK Sig Block 42';
// Real blocks are a few KiB (padded to 4 KiB when verity is on); the format allows more, we don't.
const MAX_BLOCK_BYTES = 8 * 1024 * 1024;
const MAX_V1_SIGNATURE_BYTES = 1024 * 1024;
const EOCD_SIGNATURE = 0x06054b50;

/**
 * Who signed an apk, by every scheme it carries: v1 (JAR signing, META-INF/*.RSA|DSA|EC, a CMS
 * SignedData) and v2/v3/v3.1 (pairs of the APK Signing Block just before the central directory).
 * Read by range: the end record, the block's footer, the block itself, and the v1 signature files.
 * Certificates are listed once each, by SHA-256 fingerprint, as `apksigner verify --print-certs` does.
 */
export async function readApkSigning(zip: ZipArchive, file: SourceReader): Promise<PackageSigning> {
  const schemes: string[] = [];
  const certificates = new Map<string, CertificateSummary>();
  const add = (der: Buffer) => {
    const summary = summarizeCertificate(der);
    if (summary && !certificates.has(summary.sha256)) certificates.set(summary.sha256, summary);
  };

  const v1Files = zip.entries.filter((e) => /^META-INF\/[^/]+\.(RSA|DSA|EC)$/i.test(e.name) && e.uncompressedSize <= MAX_V1_SIGNATURE_BYTES);
  if (v1Files.length > 0) schemes.push('v1');
  for (const entry of v1Files.slice(0, 8)) cmsCertificates(await zip.read(entry.name)).forEach(add);

  for (const [scheme, value] of await signingBlockPairs(file)) {
    schemes.push(scheme);
    blockCertificates(value).forEach(add);
  }
  const all = [...certificates.values()];
  return { schemes, certificates: all.slice(0, MAX_CERTIFICATES), certificatesTruncated: all.length > MAX_CERTIFICATES };
}

/** The scheme pairs of the APK Signing Block, or none when there is no (sane) block. */
async function signingBlockPairs(file: SourceReader): Promise<Array<[string, Buffer]>> {
  const cdOffset = await centralDirectoryOffset(file);
  if (cdOffset === undefined || cdOffset < 32) return [];
  const footer = await file.read(cdOffset - 24, 24);
  if (footer.toString('latin1', 8) !== BLOCK_MAGIC) return [];
  const blockSize = Number(footer.readBigUInt64LE(0));
  // The size counts everything after its leading copy: pairs, the trailing size and the magic.
  if (blockSize < 24 || blockSize > MAX_BLOCK_BYTES || blockSize + 8 > cdOffset) return [];
  const block = await file.read(cdOffset - blockSize - 8, blockSize + 8);
  if (Number(block.readBigUInt64LE(0)) !== blockSize) return [];
  const pairs: Array<[string, Buffer]> = [];
  const end = block.length - 24;
  for (let at = 8; at + 12 <= end; ) {
    const length = Number(block.readBigUInt64LE(at));
    if (length < 4 || at + 8 + length > end) break;
    const scheme = SCHEME_IDS.get(block.readUInt32LE(at + 8));
    if (scheme) pairs.push([scheme, block.subarray(at + 12, at + 8 + length)]);
    at += 8 + length;
  }
  return pairs;
}

/** The central directory's offset from the end record (found scanning back over a comment of up to 64 KiB). */
async function centralDirectoryOffset(file: SourceReader): Promise<number | undefined> {
  const tailLength = Math.min(file.size, 22 + 0xffff);
  const tail = await file.read(file.size - tailLength, tailLength);
  for (let at = tail.length - 22; at >= 0; at--) {
    if (tail.readUInt32LE(at) !== EOCD_SIGNATURE) continue;
    const offset = tail.readUInt32LE(at + 16);
    // 0xffffffff means zip64, which apks never are.
    return offset === 0xffffffff || offset > file.size ? undefined : offset;
  }
  return undefined;
}

/**
 * v2 and v3 values share their start: a length-prefixed sequence of signers, each a
 * length-prefixed signed data whose second field is the length-prefixed sequence of
 * length-prefixed DER certificates (after the digests).
 */
function blockCertificates(value: Buffer): Buffer[] {
  const certificates: Buffer[] = [];
  const signers = lengthPrefixed(value, 0);
  if (!signers) return certificates;
  for (const signer of items(signers, 16)) {
    const signedData = lengthPrefixed(signer, 0);
    if (!signedData) continue;
    const digests = lengthPrefixed(signedData, 0);
    if (!digests) continue;
    const certs = lengthPrefixed(signedData, 4 + digests.length);
    if (certs) certificates.push(...items(certs, MAX_CERTIFICATES));
  }
  return certificates;
}

function lengthPrefixed(data: Buffer, at: number): Buffer | undefined {
  if (at + 4 > data.length) return undefined;
  const length = data.readUInt32LE(at);
  return at + 4 + length > data.length ? undefined : data.subarray(at + 4, at + 4 + length);
}

function items(sequence: Buffer, limit: number): Buffer[] {
  const found: Buffer[] = [];
  for (let at = 0; at < sequence.length && found.length < limit; ) {
    const item = lengthPrefixed(sequence, at);
    if (!item) break;
    found.push(item);
    at += 4 + item.length;
  }
  return found;
}
