import { NatsConnection, createInbox, headers } from '@nats-io/transport-node';
import { Unavailable } from '@hangar/errors';
import { SpanKind, inSpan, injectTraceHeaders } from '@hangar/telemetry';
import {
  type DebugFileParseReply,
  type DebugFileParseRequest,
  PARSE_ACCEPT_HEADER,
  PARSE_ACCEPT_TIMEOUT_MS,
  PARSE_HEARTBEAT_HEADER,
  PARSE_SILENCE_MS,
  type ParseReply,
  type ParseRequest,
  debugFileParseSubject,
  isDebugFileParseReply,
  isParseAccepted,
  isParseWorking,
  isParseReply,
  parseSubject,
} from './contract';

/**
 * No worker confirmed the request in time (it went toward a node or a worker that is gone), or
 * the worker that did fell silent mid-parse (it died or froze). Ask again.
 */
export class ParseNotAccepted extends Unavailable {
  constructor(readonly reason: 'not confirmed' | 'worker silent' = 'not confirmed') {
    super('No parsing worker took the request, try again shortly');
  }
}

/** How long each wait may be; tests shorten them. */
export interface AskTimings {
  acceptTimeoutMs?: number;
  silenceMs?: number;
}

/**
 * Asks any parsing worker to read an uploaded object; waits for the answer.
 * The request's client span travels in the message headers, so the worker's
 * span (and its S3 reads) join the upload's trace.
 */
export async function requestParse(nc: NatsConnection, prefix: string, objectKey: string, timeoutMs: number, timings: AskTimings = {}): Promise<ParseReply> {
  const subject = parseSubject(prefix);
  const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': subject };
  return inSpan('parse request', { kind: SpanKind.CLIENT, attributes }, () => askWorker(nc, subject, { objectKey } satisfies ParseRequest, isParseReply, timeoutMs, timings));
}

/** Asks any parsing worker to read an uploaded debug file and store its members; waits for the answer. */
export async function requestDebugFileParse(nc: NatsConnection, prefix: string, request: DebugFileParseRequest, timeoutMs: number, timings: AskTimings = {}): Promise<DebugFileParseReply> {
  const subject = debugFileParseSubject(prefix);
  const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': subject };
  return inSpan('debug file parse request', { kind: SpanKind.CLIENT, attributes }, () => askWorker(nc, subject, request, isDebugFileParseReply, timeoutMs, timings));
}

/**
 * The request, then replies on an inbox of its own: the worker's confirmation (within
 * `acceptTimeoutMs`, else ParseNotAccepted), its beats while it works (a silence of `silenceMs`
 * after the confirmation: ParseNotAccepted too), then its answer (within `timeoutMs` in all). A
 * worker from before confirmations answers at once with the answer, which is taken as it comes.
 */
async function askWorker<R>(nc: NatsConnection, subject: string, request: object, isReply: (value: unknown) => value is R, timeoutMs: number, timings: AskTimings): Promise<R> {
  const acceptTimeoutMs = timings.acceptTimeoutMs ?? PARSE_ACCEPT_TIMEOUT_MS;
  const silenceMs = timings.silenceMs ?? PARSE_SILENCE_MS;
  const deadline = Date.now() + timeoutMs;
  const inbox = createInbox();
  const replies = nc.subscribe(inbox);
  const next = replies[Symbol.asyncIterator]();
  const h = headers();
  injectTraceHeaders(h);
  h.set(PARSE_ACCEPT_HEADER, '1');
  h.set(PARSE_HEARTBEAT_HEADER, '1');
  try {
    nc.publish(subject, JSON.stringify(request), { reply: inbox, headers: h });
    let accepted = false;
    for (;;) {
      const left = deadline - Date.now();
      const waitMs = Math.max(0, Math.min(accepted ? silenceMs : acceptTimeoutMs, left));
      const reply = await within(next.next(), waitMs);
      if (reply === undefined) {
        if (Date.now() >= deadline) throw new Unavailable('Parsing the upload took too long, try again shortly');
        throw new ParseNotAccepted(accepted ? 'worker silent' : 'not confirmed');
      }
      if (reply.done) throw new Unavailable('Parsing is unavailable, try again shortly');
      const msg = reply.value;
      // The server's no-responders status: nobody subscribes to the subject.
      if (msg.headers?.hasError && msg.headers.code === 503) throw new Unavailable('No parsing worker is running, try again shortly');
      const answer = jsonOf(msg.string());
      if (isParseAccepted(answer) || isParseWorking(answer)) {
        accepted = true;
        continue;
      }
      if (!isReply(answer)) throw new Unavailable('Parsing answered with something that is not a parse result');
      return answer;
    }
  } finally {
    replies.unsubscribe();
  }
}

/** The value, or undefined when `ms` pass first. */
export async function within<T>(value: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([value, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
