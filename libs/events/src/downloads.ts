import { JetStreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { z } from 'zod';
import { DEFAULT_SUBJECT_PREFIX } from './event-registry';
import { ensureStream } from './jetstream-setup';

/**
 * Downloads and iOS manifest fetches, as the gateway reports them to the
 * releases service. Internal: not part of the public events
 * contract (docs/events.md), which gets the aggregated `release.downloaded`.
 * The gateway adds downloads up in memory for a moment and publishes the sums
 * (one message for a whole storm, not one per download: a message per
 * download cost a quarter of download throughput in stream writes, acks and
 * claims — docs/performance.md) with a plain, unawaited NATS publish, so
 * counting never slows or fails a download; the stream below keeps the
 * messages until the releases service has counted them, across its restarts.
 */
export const downloadTallySchema = z.object({
  /** Release id. */
  r: z.number().int().positive(),
  /** Client hash: HMAC-SHA256 of address and user agent under the day's salt, base64url; never the address. */
  c: z.string().min(8).max(64),
  /** When the first of these downloads happened, in ms since the epoch (the UTC day counted is taken from it). */
  t: z.number().int().positive(),
  /** How many downloads of this release by this client on that day. */
  n: z.number().int().positive().max(1_000_000_000),
});

export type DownloadTally = z.infer<typeof downloadTallySchema>;

/** Tallies per message at most: a message stays far below NATS's 1 MB payload limit (about 80 bytes each). */
export const MAX_TALLIES_PER_MESSAGE = 1000;

/** One message: the tallies a gateway gathered since its last. */
const talliesMessageSchema = z.object({ e: z.array(downloadTallySchema).min(1).max(MAX_TALLIES_PER_MESSAGE) });

/** A message of the first format, one per download, which a stream may still hold after an upgrade. */
const singleDownloadSchema = z.object({
  r: z.number().int().positive(),
  c: z.string().min(8).max(64),
  t: z.number().int().positive(),
  k: z.enum(['download', 'install']),
});

/** Reads a downloads message, of either format, as its tallies. */
export const downloadMessageSchema = z.union([
  talliesMessageSchema.transform((m) => m.e),
  singleDownloadSchema.transform((m): DownloadTally[] => [{ r: m.r, c: m.c, t: m.t, n: 1 }]),
]);

export type DownloadMessage = z.input<typeof talliesMessageSchema>;

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
  return ensureStream(jsm, { name, subjects: [downloadSubject(prefix)], retention: RetentionPolicy.Limits, storage: StorageType.File, max_age: SEVEN_DAYS_NS });
}
