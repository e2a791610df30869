import { JetStreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { z } from 'zod';
import { DEFAULT_SUBJECT_PREFIX } from './event-registry';

/**
 * Downloads and iOS manifest fetches, as the gateway reports them to the
 * releases service (issue 20). Internal: not part of the public events
 * contract (docs/events.md), which gets the aggregated `release.downloaded`.
 * The gateway publishes with a plain, unawaited NATS publish — counting never
 * slows or fails a download — and the stream below keeps the messages until
 * the releases service has counted them, across its restarts.
 */
export const downloadMessageSchema = z.object({
  /** Release id. */
  r: z.number().int().positive(),
  /** Client hash: HMAC-SHA256 of address and user agent under the day's salt, base64url; never the address. */
  c: z.string().min(8).max(64),
  /** When, in ms since the epoch (the UTC day counted is taken from it). */
  t: z.number().int().positive(),
  /** `download` (the package) or `install` (an iOS manifest fetch). */
  k: z.enum(['download', 'install']),
});

export type DownloadMessage = z.infer<typeof downloadMessageSchema>;

const token = (prefix: string) => prefix.replace(/[^A-Za-z0-9_-]/g, '_');

export function downloadSubject(prefix = DEFAULT_SUBJECT_PREFIX): string {
  return `${token(prefix)}-internal.downloads.v1`;
}

export function downloadStreamName(prefix = DEFAULT_SUBJECT_PREFIX): string {
  return `${token(prefix).toUpperCase()}_DOWNLOADS`;
}

const SEVEN_DAYS_NS = 7 * 24 * 60 * 60 * 1e9;

/** Creates the downloads stream when missing (the releases service, at start). */
export async function ensureDownloadStream(jsm: JetStreamManager, prefix = DEFAULT_SUBJECT_PREFIX): Promise<string> {
  const name = downloadStreamName(prefix);
  try {
    await jsm.streams.info(name);
  } catch {
    try {
      await jsm.streams.add({ name, subjects: [downloadSubject(prefix)], retention: RetentionPolicy.Limits, storage: StorageType.File, max_age: SEVEN_DAYS_NS });
    } catch (err) {
      await jsm.streams.info(name).catch(() => {
        throw err;
      });
    }
  }
  return name;
}
