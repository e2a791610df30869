import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Logger } from '@hangar/logger';
import { Metrics, packageParseHistogram, packageParseQueueGauge } from '@hangar/metrics';
import type { ObjectStorage } from '@hangar/storage';
import { SpanKind, contextFromHeaders, inSpan } from '@hangar/telemetry';
import {
  type DebugFileParseReply,
  type DebugFileParseRequest,
  PARSE_ACCEPT_HEADER,
  PARSE_HEARTBEAT_HEADER,
  PARSE_HEARTBEAT_MS,
  PARSE_QUEUE_GROUP,
  type ParseAccepted,
  type ParseReply,
  type ParseRequest,
  type ParseWorking,
  debugFileParseSubject,
  parseSubject,
} from './contract';
import { parseDebugFileObject } from './debug-file.job';
import { parseObject } from './package.job';
import { Slots } from './slots';

export interface ParseWorkerOptions {
  nc: NatsConnection;
  storage: ObjectStorage;
  logger: Logger;
  prefix: string;
  /** Parses at once, packages and debug files together. */
  concurrency: number;
  /** hangar_package_parse_seconds{format,outcome} and the pool's queue depth. */
  metrics?: Metrics;
}

export interface RunningParseWorker {
  stop(): Promise<void>;
}

/** One kind of upload the pool reads: its subject, and how a request becomes a reply. */
interface ParseJob {
  subject: string;
  span: string;
  /** The reply; throws only for storage trouble, answered with `unavailable`. */
  answer(msg: Msg): Promise<object>;
  unavailable: object;
  /** What is sent when the reply itself cannot be (over NATS max_payload). */
  tooLarge: object;
}

/**
 * Answers parse requests for packages (the releases service) and debug files (the debug-files
 * service) from one pool: both are read straight from storage by range, and share `concurrency`
 * slots and the queue depth the pool scales on (deploy/k8s/base/parse-workers.yaml).
 */
export function startParseWorker({ nc, storage, logger, prefix, concurrency, metrics }: ParseWorkerOptions): RunningParseWorker {
  const parseSeconds = metrics ? packageParseHistogram(metrics) : undefined;
  const log = logger.child({ worker: 'parser' });
  const slots = new Slots(concurrency);
  const jobs: ParseJob[] = [
    {
      subject: parseSubject(prefix),
      span: 'parse package',
      async answer(msg) {
        const stopTimer = parseSeconds?.startTimer();
        let reply: ParseReply | undefined;
        try {
          reply = await parseObject(storage, msg.json<ParseRequest>().objectKey);
          return reply;
        } finally {
          stopTimer?.({ format: reply?.ok ? reply.parsed.format : 'unknown', outcome: reply ? (reply.ok ? 'ok' : reply.kind) : 'unavailable' });
        }
      },
      unavailable: { ok: false, kind: 'unavailable', message: 'The package could not be read from storage' } satisfies ParseReply,
      tooLarge: { ok: false, kind: 'corrupt', message: 'The package metadata is too large to handle' } satisfies ParseReply,
    },
    {
      subject: debugFileParseSubject(prefix),
      span: 'parse debug file',
      answer: (msg) => parseDebugFileObject(storage, debugFileRequestOf(msg)),
      unavailable: { ok: false, kind: 'unavailable', message: 'The debug file could not be read from storage' } satisfies DebugFileParseReply,
      tooLarge: { ok: false, kind: 'corrupt', message: 'The debug file lists more symbols than can be handled' } satisfies DebugFileParseReply,
    },
  ];

  const subscriptions: Subscription[] = jobs.map((job) => nc.subscribe(job.subject, { queue: PARSE_QUEUE_GROUP }));
  // Every request taken from a subscription and not yet answered, waiting for a slot or parsing.
  const inFlight = new Set<Promise<void>>();
  // Taken and not yet answered, plus what NATS has already handed this connection and the loops
  // have not read. Set whenever a request is taken or answered.
  const queueDepth = metrics ? packageParseQueueGauge(metrics) : undefined;
  const sampleQueue = () => queueDepth?.set(inFlight.size + subscriptions.reduce((pending, s) => pending + s.getPending(), 0));

  // A loop never waits for a slot: each request is confirmed as soon as it is read (a requester
  // that hears nothing asks again, contract.ts), then waits for a slot in its own task.
  const loops = jobs.map((job, i) =>
    (async () => {
      for await (const msg of subscriptions[i]!) {
        if (msg.headers?.get(PARSE_ACCEPT_HEADER)) respondQuietly(msg, { accepted: true } satisfies ParseAccepted);
        // Beats until the answer, so a requester can tell this worker from a dead one (contract.ts).
        const beats = msg.headers?.get(PARSE_HEARTBEAT_HEADER) ? setInterval(() => respondQuietly(msg, { working: true } satisfies ParseWorking), PARSE_HEARTBEAT_MS) : undefined;
        // A server span continuing the requester's trace: the ranged reads and the stored icon or members are its children.
        const span = { kind: SpanKind.SERVER, parent: contextFromHeaders(msg.headers), attributes: { 'messaging.system': 'nats', 'messaging.destination.name': msg.subject } };
        const task = slots
          .run(() => inSpan(job.span, span, () => handle(job, msg)))
          .finally(() => {
            clearInterval(beats);
            inFlight.delete(task);
            sampleQueue();
          });
        inFlight.add(task);
        sampleQueue();
      }
    })(),
  );

  function respondQuietly(msg: Msg, body: unknown): void {
    try {
      msg.respond(JSON.stringify(body));
    } catch (err) {
      log.error({ err }, 'parse confirmation could not be sent');
    }
  }

  async function handle(job: ParseJob, msg: Msg): Promise<void> {
    let reply: object;
    try {
      reply = await job.answer(msg);
    } catch (err) {
      log.error({ err, job: job.span }, 'parse request failed');
      reply = job.unavailable;
    }
    try {
      msg.respond(JSON.stringify(reply));
    } catch (err) {
      // A reply the connection refuses (over NATS max_payload) threw out of this handler, and the
      // unhandled rejection ended the whole releases service. The parsers bound what they
      // return; should a reply still not fit, the uploader gets a refusal, not an outage.
      log.error({ err, job: job.span }, 'parse reply could not be sent');
      try {
        msg.respond(JSON.stringify(job.tooLarge));
      } catch {
        // The requester times out and answers 503; the service stays up.
      }
    }
  }

  return {
    async stop() {
      await Promise.all(subscriptions.map((s) => s.drain()));
      await Promise.all(loops);
      await Promise.allSettled(inFlight);
    },
  };
}

/** The request as the debug-files service sends it; anything else is not a request this pool can answer. */
function debugFileRequestOf(msg: Msg): DebugFileParseRequest {
  const body = msg.json<Partial<DebugFileParseRequest>>();
  if (typeof body?.objectKey !== 'string' || body.objectKey === '') throw new Error('a debug-file parse request without an object key');
  const limits = typeof body.limits === 'object' && body.limits !== null ? body.limits : {};
  const bound = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined);
  const maxTotalBytes = bound(limits.maxTotalBytes);
  const maxCompressionRatio = bound(limits.maxCompressionRatio);
  return { objectKey: body.objectKey, limits: { ...(maxTotalBytes ? { maxTotalBytes } : {}), ...(maxCompressionRatio ? { maxCompressionRatio } : {}) } };
}
