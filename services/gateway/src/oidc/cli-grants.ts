import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KV } from '@nats-io/kv';
import { openKvBucket } from '@hangar/events';
import type { NatsConnection } from '@nats-io/transport-node';
import { MalformedRequest } from '@hangar/errors';

interface GrantRecord {
  userId: number;
  role: string;
  challenge: string;
  expiresAt: number;
  used?: true;
}

/** The CLI redeems its grant at once; a code left longer is useless. */
const GRANT_TTL_MS = 2 * 60 * 1000;

/**
 * `hangar login --web`: after a verified single sign-on, the
 * browser is sent to the CLI's loopback port with a one-time code, and the
 * CLI trades it — with the verifier whose SHA-256 it sent at the start (PKCE,
 * RFC 7636, between Hangar and its own CLI) — for a personal access token.
 * A code seen by anything else on the machine (a browser extension, history)
 * is worth nothing without the verifier, which never left the CLI. Records
 * are in NATS KV, keyed by the code's digest, claimed once with
 * compare-and-set, so any replica redeems them and none twice.
 */
export class CliGrants {
  private constructor(private readonly kv: KV) {}

  static async open(nc: NatsConnection, prefix: string): Promise<CliGrants> {
    return new CliGrants(await openKvBucket(nc, `${prefix}-sso-cli-grants`, { history: 1, ttl: GRANT_TTL_MS * 2 }));
  }

  async issue(user: { id: number; role: string }, challenge: string, now = Date.now()): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    await this.kv.create(keyOf(code), JSON.stringify({ userId: user.id, role: user.role, challenge, expiresAt: now + GRANT_TTL_MS } satisfies GrantRecord));
    return code;
  }

  /** The user a code was issued to, once, for the verifier matching its challenge. */
  async redeem(code: string, verifier: string, now = Date.now()): Promise<{ userId: number; role: string }> {
    const refused = new MalformedRequest('This sign-in code is unknown, expired, already used, or does not match: run `hangar login --web` again');
    if (!/^[A-Za-z0-9_-]{43}$/.test(code) || !/^[A-Za-z0-9_-]{43,128}$/.test(verifier)) throw refused;
    const entry = await this.kv.get(keyOf(code));
    const record = entry && entry.operation === 'PUT' && entry.length > 0 ? entry.json<GrantRecord>() : undefined;
    if (!entry || !record || record.used || record.expiresAt <= now) throw refused;
    try {
      // Used up before the verifier is compared: a wrong guess spends the code.
      await this.kv.update(keyOf(code), JSON.stringify({ ...record, used: true } satisfies GrantRecord), entry.revision);
    } catch {
      throw refused;
    }
    const expected = Buffer.from(record.challenge);
    const given = Buffer.from(challengeOf(verifier));
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw refused;
    return { userId: record.userId, role: record.role };
  }
}

/** RFC 7636's S256: base64url(SHA-256(verifier)). */
export const challengeOf = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

const keyOf = (code: string) => `grant.${createHash('sha256').update(code).digest('hex')}`;
