import type { IncomingMessage } from 'node:http';
import express from 'express';

/** Whether the peer `address`, `hop` steps from the gateway, is a proxy whose X-Forwarded-* headers are believed. */
export type TrustProxy = (address: string, hop: number) => boolean;

/** Trusts nobody: X-Forwarded-* are ignored, the socket's peer is the client. */
export const TRUST_NOBODY: TrustProxy = () => false;

/** `TRUSTED_PROXIES`: addresses, CIDRs and proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`), separated by commas or spaces. */
export function parseTrustedProxies(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * The trust function of `TRUSTED_PROXIES`, compiled exactly as express compiles its
 * `trust proxy` setting (proxy-addr), so `req.ip`, `req.protocol`, `req.host` and the
 * update-check fast path (before express) decide alike. Throws on an entry that is
 * no address, CIDR or known name.
 */
export function compileTrustedProxies(list: string[]): TrustProxy {
  if (list.length === 0) return TRUST_NOBODY;
  const probe = express();
  probe.set('trust proxy', list);
  return probe.get('trust proxy fn') as TrustProxy;
}

/**
 * The client's address as express's `req.ip` gives it (proxy-addr's walk): the socket's
 * peer, then each X-Forwarded-For hop from the right while the one before it is trusted.
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxy): string {
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean)
    .reverse();
  const hops = [req.socket?.remoteAddress ?? '', ...forwarded];
  let i = 0;
  while (i < hops.length - 1 && trust(hops[i]!, i)) i++;
  return hops[i]!;
}

/** The socket's peer is a trusted proxy: its X-Forwarded-Proto / -Host may be read. */
export function fromTrustedProxy(req: IncomingMessage, trust: TrustProxy): boolean {
  const peer = req.socket?.remoteAddress;
  return peer !== undefined && trust(peer, 0);
}
