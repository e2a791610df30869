import { X509Certificate, createHash } from 'node:crypto';
import type { CertificateSummary } from './signing.types';
import { boundedIsoDate } from './bounded-date';

const MAX_SUBJECT_CHARS = 1024;

/** Reads a DER certificate with Node's own X.509 parser; anything it cannot read is skipped. */
export function summarizeCertificate(der: Buffer): CertificateSummary | undefined {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(der);
  } catch {
    return undefined;
  }
  // Node separates RDNs with newlines; one line reads better in JSON and on a page.
  const parts = certificate.subject.split('\n').filter(Boolean);
  // The subject keeps Node's escapes (`\,` inside a value); the name is for reading, so unescaped.
  const commonName = parts.find((part) => part.startsWith('CN='))?.slice(3).replace(/\\(.)/g, '$1');
  return {
    subject: parts.join(', ').slice(0, MAX_SUBJECT_CHARS),
    ...(commonName ? { commonName: commonName.slice(0, MAX_SUBJECT_CHARS) } : {}),
    sha256: fingerprint(certificate.raw),
    ...optionalDate('notBefore', certificate.validFrom),
    ...optionalDate('expiresAt', certificate.validTo),
  };
}

export function fingerprint(der: Buffer): string {
  return createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g)!.join(':');
}

function optionalDate<K extends string>(key: K, text: string): Partial<Record<K, string>> {
  const iso = boundedIsoDate(new Date(text));
  return iso ? ({ [key]: iso } as Record<K, string>) : {};
}
