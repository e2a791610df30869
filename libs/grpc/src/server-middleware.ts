import { CallContext, ServerError, ServerMiddlewareCall, Status } from 'nice-grpc';
import { DomainError, grpcStatusOf, isDomainError } from '@hangar/errors';
import { Logger, REQUEST_ID_HEADER, acceptRequestId } from '@hangar/logger';
import { Metrics, grpcServerMetrics } from '@hangar/metrics';
import { continueTrace } from '@hangar/telemetry';

/** Metadata keys that carry a domain error's exact code and field problems. */
export const ERROR_CODE_TRAILER = 'hangar-error-code';
export const ERROR_ENTRY_TRAILER = 'hangar-error-entry';

/** Turns an unknown error into a domain error when it is a known outage. */
export type ErrorClassifier = (err: unknown) => DomainError | undefined;

/** A metadata key's text value (binary `-bin` values are not trace context). */
const textOf = (metadata: CallContext['metadata']) => (key: string) => {
  const value = metadata.get(key);
  return typeof value === 'string' ? value : undefined;
};

/**
 * Every RPC runs inside a request context (the caller's request id and
 * traceparent, from metadata) so its log lines and outgoing calls carry the
 * same ids. Only unary calls are used by Hangar; streams pass through without
 * a context.
 */
export function requestContextMiddleware() {
  return async function* <Request, Response>(
    call: ServerMiddlewareCall<Request, Response>,
    context: CallContext,
  ): AsyncGenerator<Response, Response | void, undefined> {
    if (call.requestStream || call.responseStream) return yield* call.next(call.request as never, context);
    const requestId = acceptRequestId(context.metadata.get(REQUEST_ID_HEADER));
    const next = call.next;
    const request = call.request;
    return await continueTrace(call.method.path, textOf(context.metadata), { requestId }, async () => {
      const iterator = next(request, context);
      let step = await iterator.next();
      while (!step.done) step = await iterator.next();
      return step.value;
    });
  };
}

/**
 * The service edge of the error table: domain errors become their gRPC status
 * with the exact code and field problems in trailers; anything unknown is a
 * bug, logged with its stack and answered as INTERNAL with a generic message.
 */
export function errorMiddleware(logger: Logger, classifiers: ErrorClassifier[] = []) {
  return async function* <Request, Response>(
    call: ServerMiddlewareCall<Request, Response>,
    context: CallContext,
  ): AsyncGenerator<Response, Response | void, undefined> {
    const started = process.hrtime.bigint();
    try {
      const result = yield* call.next(call.request as never, context);
      logger.debug({ rpc: call.method.path, ms: elapsedMs(started) }, 'rpc ok');
      return result;
    } catch (err) {
      // A cancelled call (client gone, deadline passed) is not a failure of ours.
      if (err instanceof ServerError || (err instanceof Error && err.name === 'AbortError')) throw err;
      const domain = isDomainError(err) ? err : classifiers.map((c) => c(err)).find(Boolean);
      if (domain) {
        const message = bounded(domain.message, MAX_ERROR_MESSAGE_CHARS);
        context.trailer.set(ERROR_CODE_TRAILER, domain.code);
        if (domain.entry) context.trailer.set(ERROR_ENTRY_TRAILER, asciiJson(boundedEntry(domain.entry)));
        logger.info({ rpc: call.method.path, code: domain.code, ms: elapsedMs(started) }, message);
        throw new ServerError(grpcStatusOf(domain), message);
      }
      logger.error({ rpc: call.method.path, err }, 'rpc failed with an unexpected error');
      context.trailer.set(ERROR_CODE_TRAILER, 'internal');
      throw new ServerError(Status.INTERNAL, 'Internal error');
    }
  };
}

/**
 * An error's message and field problems travel as HTTP/2 headers (grpc-message, trailers), and
 * they may echo a caller's value (a version, a debug id, a branch). Unbounded, a megabyte of it
 * went past what the client accepts in headers and the call failed, or hung until its deadline
 *. Bounded in characters: percent-encoded UTF-8 they stay far under grpc-js's 8 KiB.
 */
const MAX_ERROR_MESSAGE_CHARS = 300;
const MAX_ENTRY_FIELDS = 20;
const MAX_ENTRY_NAME_CHARS = 64;
const MAX_ENTRY_PROBLEMS = 5;
const MAX_ENTRY_PROBLEM_CHARS = 200;

function bounded(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

function boundedEntry(entry: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(entry)
      .slice(0, MAX_ENTRY_FIELDS)
      .map(([field, problems]) => [bounded(field, MAX_ENTRY_NAME_CHARS), problems.slice(0, MAX_ENTRY_PROBLEMS).map((p) => bounded(p, MAX_ENTRY_PROBLEM_CHARS))]),
  );
}

/** JSON with every non-ASCII character escaped: a text trailer may hold printable ASCII only. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function elapsedMs(started: bigint): number {
  return Number((process.hrtime.bigint() - started) / 1_000_000n);
}

/** `/hangar.users.v1.UsersService/GetUser` → service and method labels (bounded: the proto's names). */
export function rpcLabels(path: string): { service: string; method: string } {
  const [, service = 'unknown', method = 'unknown'] = /^\/([^/]+)\/([^/]+)$/.exec(path) ?? [];
  return { service, method };
}

/** The status name an RPC ended with, as the client sees it. */
export function statusName(code: Status): string {
  return Status[code] ?? String(code);
}

/**
 * Counts and times every RPC by service, method and final status code. Added
 * outermost, so it sees the status the error middleware turned an error into.
 */
export function metricsMiddleware(metrics: Metrics) {
  const { handled, duration } = grpcServerMetrics(metrics);
  return async function* <Request, Response>(
    call: ServerMiddlewareCall<Request, Response>,
    context: CallContext,
  ): AsyncGenerator<Response, Response | void, undefined> {
    const stop = duration.startTimer();
    let code = Status.OK;
    try {
      return yield* call.next(call.request as never, context);
    } catch (err) {
      code = err instanceof ServerError ? err.code : err instanceof Error && err.name === 'AbortError' ? Status.CANCELLED : Status.UNKNOWN;
      throw err;
    } finally {
      const labels = { ...rpcLabels(call.method.path), code: statusName(code) };
      handled.inc(labels);
      stop(labels);
    }
  };
}
