import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A stand-in iPhone for the `/udid` flow: a device certificate under a test CA (Apple's device CA
 * cannot be had), and the answer a device posts after installing the profile, made the way iOS
 * makes it — a CMS SignedData around an XML plist — by `openssl cms -sign`.
 */
export interface TestDevice {
  /** PEM files of the device's certificate and key, and of the CA that issued it. */
  certificate: string;
  key: string;
  caCertificate: string;
  dir: string;
}

const openssl = (args: string[], options: { cwd: string; input?: Buffer }) => execFileSync('openssl', args, { stdio: ['pipe', 'pipe', 'pipe'], ...options });

/** A CA and a certificate it issued (RSA 2048, as Apple's device certificates), in a fresh directory. */
export function makeTestDevice(commonName = 'Test Device'): TestDevice {
  const dir = mkdtempSync(join(tmpdir(), 'hangar-device-'));
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', '/CN=Hangar Test Device CA'], { cwd: dir });
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'device.key', '-out', 'device.csr', '-subj', `/CN=${commonName}`], { cwd: dir });
  openssl(['x509', '-req', '-in', 'device.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'device.pem', '-days', '30'], { cwd: dir });
  return { certificate: join(dir, 'device.pem'), key: join(dir, 'device.key'), caCertificate: join(dir, 'ca.pem'), dir };
}

export function devicePlist(attributes: Record<string, string>): string {
  const entries = Object.entries(attributes).map(([key, value]) => `\t<key>${key}</key>\n\t<string>${value}</string>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n${entries.join('\n')}\n</dict>\n</plist>\n`;
}

/** The body a device posts to the profile's URL: its attributes, signed by its certificate (DER). */
export function signedDeviceAnswer(device: TestDevice, attributes: Record<string, string>): Buffer {
  const content = join(device.dir, `answer-${process.hrtime.bigint()}.plist`);
  writeFileSync(content, devicePlist(attributes));
  return openssl(['cms', '-sign', '-in', content, '-signer', device.certificate, '-inkey', device.key, '-certfile', device.caCertificate, '-nodetach', '-binary', '-outform', 'DER'], { cwd: device.dir });
}

/** What `openssl cms -verify` finds inside a signed profile (its signature checked, the chain not), or throws. */
export function verifiedCmsContent(signed: Buffer, dir: string): Buffer {
  const file = join(dir, `signed-${process.hrtime.bigint()}.der`);
  writeFileSync(file, signed);
  return openssl(['cms', '-verify', '-noverify', '-inform', 'DER', '-in', file], { cwd: dir });
}

export function pemOf(path: string): string {
  return readFileSync(path, 'utf8');
}
