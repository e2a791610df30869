import type { Request } from 'express';
import { DownloadMessage, DownloadTally, MAX_TALLIES_PER_MESSAGE, downloadSubject } from '@hangar/events';
import type { Logger } from '@hangar/logger';
import type { NatsConnection } from '@nats-io/transport-node';
import { DailySalt, utcDay } from './daily-salt';
import { HmacSha256 } from './hmac-sha256';

/** Reports a package download or an iOS manifest fetch; returns at once, never throws. */
export type CountDownload = (releaseId: number, req: Request) => void;

export interface DownloadCounter {
  count: CountDownload;
  /** Publishes what is gathered and stops the timer (the gateway's shutdown, before NATS drains). */
  close(): void;
}

/** Each day's salt as a MAC key, padded once (a salt is one Buffer for its whole day). */
const macs = new WeakMap<Buffer, HmacSha256>();

/** The client as a salted hash of its address and user agent: never the address itself. */
export function clientHash(salt: Buffer, address: string, userAgent: string): string {
  let mac = macs.get(salt);
  if (!mac) macs.set(salt, (mac = new HmacSha256(salt)));
  return mac.digest(`${address}\0${userAgent}`).slice(0, 22);
}

export interface DownloadCounterOptions {
  prefix: string;
  logger: Logger;
  /** How long downloads are added up before they are published (the most a killed gateway loses). */
  flushMs?: number;
  /** The clock (tests move it past midnight). */
  now?: () => number;
}

/**
 * Counting off the request path. Downloads are added up in memory per
 * (release, day, client) and published every `flushMs` — or as soon as a
 * message's worth of tallies is gathered — as one message that the downloads
 * stream captures for the releases service: a storm of downloads is a message
 * a moment, not a stream write, a delivery, an ack and a claim per download
 * (that cost 27 % of download throughput, docs/performance.md). The publish is
 * plain (buffered by the client, no acknowledgement awaited): the download
 * never waits for it and never fails by it. What is lost: the tallies of the
 * last `flushMs` when the gateway is killed (a stop publishes them), and a
 * message while NATS is away — downloads not counted, nothing worse.
 */
export function downloadCounter(nc: NatsConnection, salts: DailySalt, options: DownloadCounterOptions): DownloadCounter {
  const { logger, flushMs = 1000, now = Date.now } = options;
  const subject = downloadSubject(options.prefix);
  let tallies = new Map<string, DownloadTally>();
  let warned = false;

  const flush = () => {
    if (tallies.size === 0) return;
    const message: DownloadMessage = { e: [...tallies.values()] };
    tallies = new Map();
    try {
      nc.publish(subject, JSON.stringify(message));
    } catch (err) {
      if (!warned) logger.warn({ err, downloads: message.e.reduce((sum, t) => sum + t.n, 0) }, 'downloads not counted: NATS refused the publish');
      warned = true;
    }
  };
  const timer = setInterval(flush, flushMs);
  timer.unref();

  const add = (releaseId: number, day: string, client: string, at: number) => {
    const key = `${releaseId}:${day}:${client}`;
    const tally = tallies.get(key);
    if (tally) {
      tally.n += 1;
      return;
    }
    tallies.set(key, { r: releaseId, c: client, t: at, n: 1 });
    if (tallies.size >= MAX_TALLIES_PER_MESSAGE) flush();
  };
  const clients = new ClientHashes();
  const days = new UtcDays();

  return {
    count(releaseId, req) {
      const at = now();
      const day = days.of(at);
      const address = req.ip ?? req.socket.remoteAddress ?? '';
      const userAgent = req.get('user-agent') ?? '';
      const salt = salts.peek(day);
      if (salt) return add(releaseId, day, clients.hash(salt, address, userAgent), at);
      // The first download of a day waits for the salt, off the request path.
      salts.get(day).then(
        (s) => add(releaseId, day, clients.hash(s, address, userAgent), at),
        (err) => logger.warn({ err }, 'download not counted: no salt for the day'),
      );
    },
    close() {
      clearInterval(timer);
      flush();
    },
  };
}

/** Clients hashed today: at most this many remembered, then forgotten together. */
const REMEMBERED_CLIENTS = 10_000;
/** A user agent longer than this is hashed every time: a client choosing huge ones cannot fill the memory. */
const REMEMBERED_USER_AGENT_CHARS = 512;

/**
 * The client hashes of recent downloads, so a storm of downloads from one client costs a map
 * lookup each, not an HMAC (0.5 µs against 3 µs per download with the day below, "counting
 * alone" in bench/downloads.bench.mjs). Hashes are remembered for their salt only (a new day's
 * salt starts afresh), and memory stays bounded: by a count, and by the length of what is
 * remembered.
 */
class ClientHashes {
  private salt: Buffer | undefined;
  private readonly known = new Map<string, string>();

  hash(salt: Buffer, address: string, userAgent: string): string {
    if (salt !== this.salt || this.known.size >= REMEMBERED_CLIENTS) {
      this.known.clear();
      this.salt = salt;
    }
    if (userAgent.length > REMEMBERED_USER_AGENT_CHARS) return clientHash(salt, address, userAgent);
    const key = `${address}\0${userAgent}`;
    let hash = this.known.get(key);
    if (hash === undefined) {
      hash = clientHash(salt, address, userAgent);
      this.known.set(key, hash);
    }
    return hash;
  }
}

/** The UTC day of a time, formatted once a day instead of once a download. */
class UtcDays {
  private day = '';
  private endsAt = 0;

  of(at: number): string {
    if (at >= this.endsAt) {
      this.day = utcDay(at);
      this.endsAt = (Math.floor(at / DAY_MS) + 1) * DAY_MS;
    }
    return this.day;
  }
}

const DAY_MS = 24 * 3600 * 1000;
