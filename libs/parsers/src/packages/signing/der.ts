/** One DER element: its tag, where its content lies, and the whole encoding. */
export interface DerElement {
  tag: number;
  content: Buffer;
  encoded: Buffer;
}

/**
 * Reads the element at `offset`, or undefined when the bytes are not valid DER (indefinite or
 * over-long lengths, multi-byte tags, content past the end). Enough of DER for what signing
 * needs — walking a CMS SignedData down to its certificates — and nothing more.
 */
export function readDer(data: Buffer, offset = 0): DerElement | undefined {
  if (offset + 2 > data.length) return undefined;
  const tag = data[offset]!;
  if ((tag & 0x1f) === 0x1f) return undefined;
  let length = data[offset + 1]!;
  let header = 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4 || offset + 2 + bytes > data.length) return undefined;
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + data[offset + 2 + i]!;
    header += bytes;
  }
  const end = offset + header + length;
  if (end > data.length) return undefined;
  return { tag, content: data.subarray(offset + header, end), encoded: data.subarray(offset, end) };
}

/** The elements inside a constructed element's content, in order; stops at the first bad one. */
export function derChildren(content: Buffer, limit = 10_000): DerElement[] {
  const children: DerElement[] = [];
  for (let offset = 0; offset < content.length && children.length < limit; ) {
    const child = readDer(content, offset);
    if (!child) break;
    children.push(child);
    offset += child.encoded.length;
  }
  return children;
}

const SEQUENCE = 0x30;
const CONTEXT_0 = 0xa0;

/**
 * The certificates carried by a CMS / PKCS#7 SignedData (a JAR signature's .RSA/.DSA/.EC file):
 * ContentInfo { type, [0] SignedData { version, digestAlgorithms, encapContentInfo,
 * [0] IMPLICIT certificates, ... } }. Each is returned as its DER encoding.
 */
export function cmsCertificates(data: Buffer): Buffer[] {
  const contentInfo = readDer(data);
  if (contentInfo?.tag !== SEQUENCE) return [];
  const explicit = derChildren(contentInfo.content, 2)[1];
  if (explicit?.tag !== CONTEXT_0) return [];
  const signedData = readDer(explicit.content);
  if (signedData?.tag !== SEQUENCE) return [];
  const certificates = derChildren(signedData.content, 6).find((child, index) => index >= 3 && child.tag === CONTEXT_0);
  return certificates ? derChildren(certificates.content, 100).filter((c) => c.tag === SEQUENCE).map((c) => Buffer.from(c.encoded)) : [];
}
