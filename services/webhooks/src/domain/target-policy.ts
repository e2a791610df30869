import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { InvalidArgument } from '@hangar/errors';

/**
 * Where webhooks may send (SSRF guard). http(s) URLs only; the host's every
 * address must be public — loopback, private, link-local, unique-local,
 * CGNAT, multicast and reserved ranges are refused — unless
 * HANGAR_WEBHOOK_ALLOWED_HOSTS lists the host name, the address or a CIDR
 * range holding it. Checked when a webhook is saved and again at every
 * delivery, on the very addresses the connection then uses (no second DNS
 * answer can slip in: DNS rebinding).
 */

const SPECIAL_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this" network, unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const SPECIAL_V6: [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
];

const denied = new BlockList();
for (const [net, prefix] of SPECIAL_V4) denied.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of SPECIAL_V6) denied.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible or NAT64 (64:ff9b::/96) IPv6 address. */
function embeddedV4(v6: string): string | undefined {
  const lower = v6.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return undefined;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export class WebhookTargetPolicy {
  private readonly allowedNames = new Set<string>();
  private readonly allowedSuffixes: string[] = [];
  private readonly allowedAddresses = new BlockList();

  /** `allowed`: HANGAR_WEBHOOK_ALLOWED_HOSTS. Throws on an entry it cannot read, so a typo fails at start. */
  constructor(
    allowed: string,
    private readonly resolve: (host: string) => Promise<ResolvedAddress[]> = defaultResolve,
  ) {
    for (const raw of allowed.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean)) {
      const cidr = /^(.+)\/(\d{1,3})$/.exec(raw);
      if (cidr) {
        const family = isIP(cidr[1]!);
        const prefix = Number(cidr[2]);
        if (!family || prefix > (family === 4 ? 32 : 128)) throw new Error(`HANGAR_WEBHOOK_ALLOWED_HOSTS: ${raw} is not a CIDR range`);
        this.allowedAddresses.addSubnet(cidr[1]!, prefix, family === 4 ? 'ipv4' : 'ipv6');
      } else if (isIP(raw.replace(/^\[|\]$/g, ''))) {
        const address = raw.replace(/^\[|\]$/g, '');
        this.allowedAddresses.addAddress(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
      } else if (/^\*\.[a-z0-9.-]+$/.test(raw)) {
        this.allowedSuffixes.push(raw.slice(1));
      } else if (/^[a-z0-9.-]+$/.test(raw)) {
        this.allowedNames.add(raw.replace(/\.$/, ''));
      } else {
        throw new Error(`HANGAR_WEBHOOK_ALLOWED_HOSTS: ${raw} is neither a host name, an address nor a CIDR range`);
      }
    }
  }

  /** Syntax: an absolute http(s) URL with a host and no credentials. InvalidArgument naming `url` otherwise. */
  parseUrl(raw: string): URL {
    const text = raw.trim();
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw InvalidArgument.field('url', 'must be an absolute http or https URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw InvalidArgument.field('url', 'must use http or https');
    if (!url.hostname) throw InvalidArgument.field('url', 'must name a host');
    if (url.username || url.password) throw InvalidArgument.field('url', 'must not carry credentials; use the webhook secret');
    if (text.length > 2048) throw InvalidArgument.field('url', 'is too long (at most 2048 characters)');
    return url;
  }

  /** Whether the operator listed this host name (exactly or under a `*.` entry). */
  private nameAllowed(host: string): boolean {
    const name = host.toLowerCase().replace(/\.$/, '');
    return this.allowedNames.has(name) || this.allowedSuffixes.some((suffix) => name.endsWith(suffix));
  }

  /** Whether an address may be called: public, or listed. */
  addressAllowed(address: string): boolean {
    let ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
    let family = isIP(ip);
    if (family === 6) {
      const v4 = embeddedV4(ip);
      if (v4) {
        ip = v4;
        family = 4;
      }
    }
    if (!family) return false;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (this.allowedAddresses.check(ip, type)) return true;
    return !denied.check(ip, type);
  }

  /**
   * The addresses to connect to for `host`, every one checked; throws a
   * message fit for the delivery log (or a 422) when the host is refused or
   * does not resolve.
   */
  async addressesFor(host: string): Promise<ResolvedAddress[]> {
    const bare = host.replace(/^\[|\]$/g, '');
    const literal = isIP(bare);
    if (literal) {
      if (!this.addressAllowed(bare)) throw new TargetRefused(`${bare} is a private, loopback or reserved address; list it in HANGAR_WEBHOOK_ALLOWED_HOSTS to allow it`);
      return [{ address: bare, family: literal as 4 | 6 }];
    }
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolve(bare);
    } catch {
      throw new TargetRefused(`${bare} does not resolve`);
    }
    if (addresses.length === 0) throw new TargetRefused(`${bare} does not resolve`);
    // A listed name is trusted whatever it resolves to.
    if (this.nameAllowed(bare)) return addresses;
    if (bare === 'localhost' || bare.endsWith('.localhost')) throw new TargetRefused(`${bare} is a loopback name; list it in HANGAR_WEBHOOK_ALLOWED_HOSTS to allow it`);
    const refused = addresses.filter((a) => !this.addressAllowed(a.address));
    if (refused.length > 0) {
      throw new TargetRefused(`${bare} resolves to ${refused.map((a) => a.address).join(', ')}, a private, loopback or reserved address; list it in HANGAR_WEBHOOK_ALLOWED_HOSTS to allow it`);
    }
    return addresses;
  }

  /** For create and update: the URL, checked now (422 naming `url` when refused). */
  async checkUrl(raw: string): Promise<URL> {
    const url = this.parseUrl(raw);
    try {
      await this.addressesFor(url.hostname);
    } catch (err) {
      if (err instanceof TargetRefused) throw InvalidArgument.field('url', `is not an allowed target: ${err.message}`);
      throw err;
    }
    return url;
  }
}

export class TargetRefused extends Error {}

async function defaultResolve(host: string): Promise<ResolvedAddress[]> {
  const answers = await dnsLookup(host, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}
