import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { KV } from '@nats-io/kv';
import { openKvBucket } from '@hangar/events';
import type { NatsConnection } from '@nats-io/transport-node';
import { MalformedRequest } from '@hangar/errors';
import type { SignInChecks } from './identity-provider';

/** `hangar login --web`: where the CLI waits (a loopback port) and the digest of the verifier it keeps. */
export interface CliRequest {
  port: number;
  challenge: string;
}

interface StateRecord {
  expiresAt: number;
  used?: true;
  cli?: CliRequest;
}

export interface ClaimedSignIn {
  checks: SignInChecks;
  cli?: CliRequest;
}

/** Past its expiry a record is kept this long more, so a late callback hears "expired", not "unknown". */
const KEEP_AFTER_EXPIRY_MS = 15 * 60 * 1000;

/**
 * Started single sign-ons, in a NATS KV bucket every gateway replica reads:
 * the provider may send the browser back to any replica. A record holds no
 * secret — only the state's digest as key, its expiry, and whether it was
 * used. The PKCE verifier and the nonce are derived from the state and a
 * random browser secret that lives only in the browser's HttpOnly cookie:
 * NATS alone cannot complete a sign-in, and a callback URL carried to another
 * browser (a login CSRF) cannot either. A record is claimed once, with
 * compare-and-set, so a replayed callback is refused on every replica.
 */
export class SignInStates {
  private constructor(
    private readonly kv: KV,
    private readonly ttlMs: number,
  ) {}

  static async open(nc: NatsConnection, prefix: string, ttlMs: number): Promise<SignInStates> {
    return new SignInStates(await openKvBucket(nc, `${prefix}-sso-states`, { history: 1, ttl: ttlMs + KEEP_AFTER_EXPIRY_MS }), ttlMs);
  }

  /** A new sign-in: its state (for the provider) and browser secret (for the cookie). */
  async begin(cli?: CliRequest, now = Date.now()): Promise<{ state: string; browserSecret: string; checks: SignInChecks }> {
    const state = randomBytes(32).toString('base64url');
    const browserSecret = randomBytes(32).toString('base64url');
    await this.kv.create(keyOf(state), JSON.stringify({ expiresAt: now + this.ttlMs, ...(cli ? { cli } : {}) } satisfies StateRecord));
    return { state, browserSecret, checks: checksFor(state, browserSecret) };
  }

  /**
   * The callback's state, claimed for this one use: unknown, expired, already
   * used or started in another browser (no cookie) — each a 400 that says so.
   */
  async claim(state: string | undefined, browserSecret: string | undefined, now = Date.now()): Promise<ClaimedSignIn> {
    if (!state || !/^[A-Za-z0-9_-]{43}$/.test(state)) throw new MalformedRequest('This sign-in link has no valid state: start the sign-in again');
    const key = keyOf(state);
    const entry = await this.kv.get(key);
    const record = entry && entry.operation === 'PUT' && entry.length > 0 ? entry.json<StateRecord>() : undefined;
    if (!entry || !record) throw new MalformedRequest('This sign-in is unknown or long expired: start the sign-in again');
    if (record.used) throw new MalformedRequest('This sign-in link was already used: start the sign-in again');
    if (record.expiresAt <= now) throw new MalformedRequest('This sign-in took too long and has expired: start the sign-in again');
    try {
      await this.kv.update(key, JSON.stringify({ ...record, used: true } satisfies StateRecord), entry.revision);
    } catch (err) {
      if (isConflict(err)) throw new MalformedRequest('This sign-in link was already used: start the sign-in again');
      throw err;
    }
    // Checked after the claim: a link opened in the wrong browser is used up, not left for a second try.
    if (!browserSecret) throw new MalformedRequest('This sign-in was started in another browser (or its cookie was blocked): start the sign-in again here');
    return { checks: checksFor(state, browserSecret), ...(record.cli ? { cli: record.cli } : {}) };
  }
}

/** The PKCE verifier (43 base64url characters, RFC 7636) and the nonce, bound to both the state and the browser. */
function checksFor(state: string, browserSecret: string): SignInChecks {
  const derive = (purpose: string) => createHmac('sha256', browserSecret).update(`${purpose}:${state}`).digest('base64url');
  return { state, codeVerifier: derive('pkce'), nonce: derive('nonce') };
}

const keyOf = (state: string) => `state.${createHash('sha256').update(state).digest('hex')}`;

function isConflict(err: unknown): boolean {
  const text = String((err as { message?: string })?.message ?? err);
  return /wrong last sequence|10071|key exists|10058/i.test(text);
}
