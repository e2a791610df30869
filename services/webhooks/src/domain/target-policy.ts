import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { InvalidArgument } from '@hangar/errors';

/**
 * Where webhooks may send (SSRF guard). http(s) URLs only; the host's every
 * address must be public — loopback, private, link-local, unique-local,
 * CGNAT, multicast and reserved ranges are refused — unless
 * HANGAR_WEBHOOK_ALLOWED_HOSTS lists the host name, the address or a CIDR
 * range holding it (a bare entry for every port, `entry:port` for that port
 * only). An IPv6 address that carries an IPv4 one (compatible, mapped,
 * translated, NAT64, 6to4) is judged by that IPv4 address too. Checked when a webhook is saved and again at every
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
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translated to any IPv4 address, private ones included
  ['2001::', 32], // Teredo: tunnels to an IPv4 address
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
];

const denied = new BlockList();
for (const [net, prefix] of SPECIAL_V4) denied.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of SPECIAL_V6) denied.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (any spelling: `::`, a dotted IPv4 tail), or undefined. */
export function ipv6Groups(v6: string): number[] | undefined {
  if (isIP(v6) !== 6) return undefined;
  let text = v6.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const words = (part: string | undefined) => (part ? part.split(':').map((w) => parseInt(w, 16)) : []);
  const front = words(head);
  if (tail === undefined) return front.length === 8 ? front : undefined;
  const back = words(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 address an IPv6 address carries and reaches: IPv4-compatible
 * (`::a.b.c.d`, `::7f00:1` — `::` and `::1` included, read as 0.0.0.0 / 0.0.0.1),
 * IPv4-mapped (`::ffff:a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`), NAT64
 * (`64:ff9b::/96`) and 6to4 (`2002:AABB:CCDD::/48`).
 */
export function embeddedV4(v6: string): string | undefined {
  const g = ipv6Groups(v6);
  if (!g) return undefined;
  const zero = (from: number, to: number) => g.slice(from, to).every((w) => w === 0);
  if (zero(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return v4Of(g[6]!, g[7]!);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4Of(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4Of(g[1]!, g[2]!);
  return undefined;
}

/** An allow-list entry's port: undefined for any port. */
type Port = number | 'any';

interface AllowedSet {
  names: Set<string>;
  suffixes: string[];
  addresses: BlockList;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export class WebhookTargetPolicy {
  /** Allow-list entries by port; `any` holds the bare entries (every port). */
  private readonly allowed = new Map<Port, AllowedSet>();

  /** `allowed`: HANGAR_WEBHOOK_ALLOWED_HOSTS. Throws on an entry it cannot read, so a typo fails at start. */
  constructor(
    allowed: string,
    private readonly resolve: (host: string) => Promise<ResolvedAddress[]> = defaultResolve,
  ) {
    for (const raw of allowed.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean)) {
      // `host:port`, `a.b.c.d:port`, `[v6]:port`, `cidr:port`: that port only; without one, every port.
      let entry = raw;
      let port: Port = 'any';
      const withPort = /^(.*[^:]):(\d{1,5})$/.exec(raw);
      if (withPort && !isIP(raw) && (!withPort[1]!.includes(':') || withPort[1]!.startsWith('['))) {
        const n = Number(withPort[2]);
        if (n < 1 || n > 65535) throw new Error(`HANGAR_WEBHOOK_ALLOWED_HOSTS: ${raw} has no valid port`);
        entry = withPort[1]!;
        port = n;
      }
      const set = this.setFor(port);
      const cidr = /^(.+)\/(\d{1,3})$/.exec(entry);
      if (cidr) {
        const family = isIP(cidr[1]!);
        const prefix = Number(cidr[2]);
        if (!family || prefix > (family === 4 ? 32 : 128)) throw new Error(`HANGAR_WEBHOOK_ALLOWED_HOSTS: ${raw} is not a CIDR range`);
        set.addresses.addSubnet(cidr[1]!, prefix, family === 4 ? 'ipv4' : 'ipv6');
      } else if (isIP(entry.replace(/^\[|\]$/g, ''))) {
        const address = entry.replace(/^\[|\]$/g, '');
        set.addresses.addAddress(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
      } else if (/^\*\.[a-z0-9.-]+$/.test(entry)) {
        set.suffixes.push(entry.slice(1));
      } else if (/^[a-z0-9.-]+$/.test(entry)) {
        set.names.add(entry.replace(/\.$/, ''));
      } else {
        throw new Error(`HANGAR_WEBHOOK_ALLOWED_HOSTS: ${raw} is neither a host name, an address nor a CIDR range (each optionally :port)`);
      }
    }
  }

  private setFor(port: Port): AllowedSet {
    let set = this.allowed.get(port);
    if (!set) this.allowed.set(port, (set = { names: new Set(), suffixes: [], addresses: new BlockList() }));
    return set;
  }

  /** The allow-list entries that hold for `port`: the bare ones, and those naming that port. */
  private setsFor(port: number | undefined): AllowedSet[] {
    return [this.allowed.get('any'), port === undefined ? undefined : this.allowed.get(port)].filter((s): s is AllowedSet => !!s);
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

  /** Whether the operator listed this host name (exactly or under a `*.` entry) for `port`. */
  private nameAllowed(host: string, port: number | undefined): boolean {
    const name = host.toLowerCase().replace(/\.$/, '');
    return this.setsFor(port).some((set) => set.names.has(name) || set.suffixes.some((suffix) => name.endsWith(suffix)));
  }

  /** Whether an address is public: outside every special range, also as the IPv4 address an IPv6 form carries. */
  isPublic(address: string): boolean {
    const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
    const family = isIP(ip);
    if (family === 4) return !denied.check(ip, 'ipv4');
    if (family !== 6) return false;
    if (denied.check(ip, 'ipv6')) return false;
    const v4 = embeddedV4(ip);
    return v4 === undefined || !denied.check(v4, 'ipv4');
  }

  /** Whether an address may be called on `port` (undefined: only entries for every port count): public, or listed. */
  addressAllowed(address: string, port?: number): boolean {
    const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
    const family = isIP(ip);
    if (!family) return false;
    const v4 = family === 6 ? embeddedV4(ip) : undefined;
    for (const set of this.setsFor(port)) {
      if (set.addresses.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return true;
      if (v4 !== undefined && set.addresses.check(v4, 'ipv4')) return true;
    }
    return this.isPublic(ip);
  }

  /**
   * The addresses to connect to for `host` on `port`, every one checked; throws a
   * message fit for the delivery log (or a 422) when the host is refused or
   * does not resolve.
   */
  async addressesFor(host: string, port?: number): Promise<ResolvedAddress[]> {
    const bare = host.replace(/^\[|\]$/g, '');
    const literal = isIP(bare);
    if (literal) {
      if (!this.addressAllowed(bare, port)) throw new TargetRefused(`${bare} is a private, loopback or reserved address; list it in HANGAR_WEBHOOK_ALLOWED_HOSTS to allow it`);
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
    if (this.nameAllowed(bare, port)) return addresses;
    if (bare === 'localhost' || bare.endsWith('.localhost')) throw new TargetRefused(`${bare} is a loopback name; list it in HANGAR_WEBHOOK_ALLOWED_HOSTS to allow it`);
    const refused = addresses.filter((a) => !this.addressAllowed(a.address, port));
    if (refused.length > 0) {
      throw new TargetRefused(`${bare} resolves to ${refused.map((a) => a.address).join(', ')}, a private, loopback or reserved address; list it in HANGAR_WEBHOOK_ALLOWED_HOSTS to allow it`);
    }
    return addresses;
  }

  /** For create and update: the URL, checked now (422 naming `url` when refused). */
  async checkUrl(raw: string): Promise<URL> {
    const url = this.parseUrl(raw);
    try {
      await this.addressesFor(url.hostname, portOf(url));
    } catch (err) {
      if (err instanceof TargetRefused) throw InvalidArgument.field('url', `is not an allowed target: ${err.message}`);
      throw err;
    }
    return url;
  }
}

/** The port a URL connects to. */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

export class TargetRefused extends Error {}

async function defaultResolve(host: string): Promise<ResolvedAddress[]> {
  const answers = await dnsLookup(host, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}
