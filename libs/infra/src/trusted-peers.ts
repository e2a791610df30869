import { BlockList, isIP } from 'node:net';

/** proxy-addr's names, as the gateway's `TRUSTED_PROXIES` accepts them. */
const NAMED: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']],
  linklocal: [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']],
  uniquelocal: [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['fc00::', 7, 'ipv6']],
};

/**
 * `TRUSTED_PROXIES` (addresses, CIDRs, `loopback` / `linklocal` / `uniquelocal`; commas or
 * spaces between) as a test of a peer's address — the same list the gateway's express
 * `trust proxy` reads, for the launcher's round-robin proxy. Throws on an entry it cannot read.
 */
export function trustedPeers(list: string | undefined): (address: string) => boolean {
  const entries = (list ?? '').split(/[\s,]+/).filter(Boolean);
  if (entries.length === 0) return () => false;
  const blocks = new BlockList();
  for (const entry of entries) {
    const named = NAMED[entry];
    if (named) {
      for (const [net, prefix, type] of named) blocks.addSubnet(net, prefix, type);
      continue;
    }
    const [address, prefix] = entry.split('/');
    const type = isIP(address ?? '');
    if (type === 0 || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) throw new Error(`TRUSTED_PROXIES: ${entry} is no IP address, CIDR or loopback/linklocal/uniquelocal`);
    const family = type === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) blocks.addAddress(address!, family);
    else blocks.addSubnet(address!, Number(prefix), family);
  }
  return (address) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    const plain = mapped ? mapped[1]! : address;
    const type = isIP(plain);
    return type !== 0 && blocks.check(plain, type === 4 ? 'ipv4' : 'ipv6');
  };
}
