import { randomUUID } from 'node:crypto';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Logger } from '@hangar/logger';
import { Metrics, packageParseHistogram, packageParseQueueGauge } from '@hangar/metrics';
import { PackageParseError, UnknownPackageError, parsePackage } from '@hangar/parsers';
import type { ObjectStorage } from '@hangar/storage';
import { SpanKind, contextFromHeaders, inSpan } from '@hangar/telemetry';
import { PARSE_ACCEPT_HEADER, PARSE_QUEUE_GROUP, ParseAccepted, ParseReply, ParseRequest, parseSubject } from './parse-contract';
import { Slots } from './slots';

export interface ParseWorkerOptions {
  nc: NatsConnection;
  storage: ObjectStorage;
  logger: Logger;
  prefix: string;
  concurrency: number;
  /** hangar_package_parse_seconds{format,outcome}. */
  metrics?: Metrics;
}

export interface RunningParseWorker {
  stop(): Promise<void>;
}

/**
 * Answers parse requests: reads the uploaded object's metadata with
 * @hangar/parsers straight from storage through ranged GETs — only the parts
 * the format needs (a zip's central directory, manifest, plist, icon), never
 * the whole object, so a 1 GiB package costs about what a 3 MB one does —
 * stores the icon as a PNG and replies.
 */
export function startParseWorker({ nc, storage, logger, prefix, concurrency, metrics }: ParseWorkerOptions): RunningParseWorker {
  const parseSeconds = metrics ? packageParseHistogram(metrics) : undefined;
  const subscription: Subscription = nc.subscribe(parseSubject(prefix), { queue: PARSE_QUEUE_GROUP });
  // Every request taken from the subscription and not yet answered, waiting for a slot or parsing.
  const inFlight = new Set<Promise<void>>();
  const log = logger.child({ worker: 'package-parser' });
  // Taken and not yet answered, plus what NATS has already handed this connection and the loop
  // has not read. Set whenever a request is taken or answered.
  const queueDepth = metrics ? packageParseQueueGauge(metrics) : undefined;
  const sampleQueue = () => queueDepth?.set(inFlight.size + subscription.getPending());
  const slots = new Slots(concurrency);

  // The loop never waits for a slot: each request is confirmed as soon as it is read (a
  // requester that hears nothing asks again, parse-contract.ts), then waits for a slot in its own task.
  const loop = (async () => {
    for await (const msg of subscription) {
      if (msg.headers?.get(PARSE_ACCEPT_HEADER)) respondQuietly(msg, { accepted: true } satisfies ParseAccepted);
      // A server span continuing the requester's trace: the ranged reads of the package and the icon's upload are its children.
      const span = { kind: SpanKind.SERVER, parent: contextFromHeaders(msg.headers), attributes: { 'messaging.system': 'nats', 'messaging.destination.name': msg.subject } };
      const task = slots
        .run(() => inSpan('parse package', span, () => handle(msg)))
        .finally(() => {
          inFlight.delete(task);
          sampleQueue();
        });
      inFlight.add(task);
      sampleQueue();
    }
  })();

  function respondQuietly(msg: Msg, body: unknown): void {
    try {
      msg.respond(JSON.stringify(body));
    } catch (err) {
      log.error({ err }, 'parse confirmation could not be sent');
    }
  }

  async function handle(msg: Msg): Promise<void> {
    let reply: ParseReply;
    const stopTimer = parseSeconds?.startTimer();
    try {
      const request = msg.json<ParseRequest>();
      reply = await parseObject(storage, request.objectKey);
    } catch (err) {
      log.error({ err }, 'parse request failed');
      reply = { ok: false, kind: 'unavailable', message: 'The package could not be read from storage' };
    }
    stopTimer?.({ format: reply.ok ? reply.parsed.format : 'unknown', outcome: reply.ok ? 'ok' : reply.kind });
    try {
      msg.respond(JSON.stringify(reply));
    } catch (err) {
      // A reply the connection refuses (over NATS max_payload) threw out of this handler, and the
      // unhandled rejection ended the whole releases service. The parser now bounds
      // what it returns; should a reply still not fit, the uploader gets a refusal, not an outage.
      log.error({ err }, 'parse reply could not be sent');
      try {
        msg.respond(JSON.stringify({ ok: false, kind: 'corrupt', message: 'The package metadata is too large to handle' } satisfies ParseReply));
      } catch {
        // The requester times out and answers 503; the service stays up.
      }
    }
  }

  return {
    async stop() {
      await subscription.drain();
      await loop;
      await Promise.allSettled(inFlight);
    },
  };
}

export async function parseObject(storage: ObjectStorage, objectKey: string): Promise<ParseReply> {
  // A missing object or a storage outage throws here (or from a read below) and is answered as
  // 'unavailable' by the caller; only what the parser says about the content is corrupt/unknown.
  const source = await storage.openRangeSource(objectKey);
  try {
    const { icon, ...parsed } = await parsePackage(source);
    let iconKey: string | undefined;
    if (icon) {
      iconKey = `icons/${randomUUID()}.png`;
      await storage.putBuffer(iconKey, icon, 'image/png');
    }
    return { ok: true, parsed, ...(iconKey ? { iconKey } : {}) };
  } catch (err) {
    if (err instanceof PackageParseError) return { ok: false, kind: 'corrupt', message: err.message };
    if (err instanceof UnknownPackageError) return { ok: false, kind: 'unknown', message: err.message };
    throw err;
  } finally {
    // parsePackage closes the source it was given; closing again is harmless and covers a throw before it.
    await source.close();
  }
}
