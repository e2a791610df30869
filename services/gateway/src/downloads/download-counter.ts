import { createHmac } from 'node:crypto';
import type { Request } from 'express';
import { DownloadMessage, downloadSubject } from '@hangar/events';
import type { Logger } from '@hangar/logger';
import type { NatsConnection } from '@nats-io/transport-node';
import { DailySalt, utcDay } from './daily-salt';

export type DownloadKind = DownloadMessage['k'];

/** Reports a download or an iOS manifest fetch; returns at once, never throws. */
export type CountDownload = (releaseId: number, kind: DownloadKind, req: Request) => void;

/** The client as a salted hash of its address and user agent: never the address itself. */
export function clientHash(salt: Buffer, address: string, userAgent: string): string {
  return createHmac('sha256', salt).update(address).update('\0').update(userAgent).digest('base64url').slice(0, 22);
}

/**
 * Counting off the request path: a plain NATS publish (buffered by the
 * client, no acknowledgement awaited) that the downloads stream captures for
 * the releases service. The download never waits for it and never fails by
 * it; a message lost while NATS is away is a download not counted, nothing
 * worse.
 */
export function downloadCounter(nc: NatsConnection, salts: DailySalt, prefix: string, logger: Logger): CountDownload {
  const subject = downloadSubject(prefix);
  let warned = false;
  const publish = (message: DownloadMessage) => {
    try {
      nc.publish(subject, JSON.stringify(message));
    } catch (err) {
      if (!warned) logger.warn({ err }, 'download not counted: NATS refused the publish');
      warned = true;
    }
  };
  return (releaseId, kind, req) => {
    const at = Date.now();
    const day = utcDay(at);
    const address = req.ip ?? req.socket.remoteAddress ?? '';
    const userAgent = req.get('user-agent') ?? '';
    const salt = salts.peek(day);
    if (salt) return publish({ r: releaseId, c: clientHash(salt, address, userAgent), t: at, k: kind });
    // The first download of a day waits for the salt, off the request path.
    salts.get(day).then(
      (s) => publish({ r: releaseId, c: clientHash(s, address, userAgent), t: at, k: kind }),
      (err) => logger.warn({ err }, 'download not counted: no salt for the day'),
    );
  };
}
