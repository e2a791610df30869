import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * What travels with one request through HTTP, gRPC metadata and NATS headers,
 * so every log line of the request carries the same id.
 */
export interface RequestContext {
  requestId: string;
}

/**
 * What runs with the code of one request: its request context, and
 * OpenTelemetry's context (its active span) when tracing is on. One
 * AsyncLocalStorage holds both — every promise a request makes copies the
 * store of each storage in use, so a second one for OpenTelemetry cost CPU on
 * every request (libs/telemetry's context manager keeps its context here).
 * Each half is set without touching the other.
 */
interface Scope {
  request?: RequestContext;
  /** OpenTelemetry's Context, opaque here. */
  trace?: unknown;
}

const storage = new AsyncLocalStorage<Scope>();

/** Header and metadata key for the request id on every hop. */
export const REQUEST_ID_HEADER = 'x-request-id';

export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run({ request: context, trace: storage.getStore()?.trace }, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore()?.request;
}

/** For libs/telemetry's context manager only: OpenTelemetry's half of the scope. */
export const traceScope = {
  active: (): unknown => storage.getStore()?.trace,
  run: <T>(traceContext: unknown, fn: () => T): T => storage.run({ request: storage.getStore()?.request, trace: traceContext }, fn),
  /** Both halves at once: a request's edge sets them together, in one run rather than two. */
  runWithRequest: <T>(traceContext: unknown, request: RequestContext, fn: () => T): T => storage.run({ request, trace: traceContext }, fn),
};

/**
 * The scope running now, to run a later callback in (an event listener the
 * request's context would not reach). Cheaper than `AsyncResource.bind`, which
 * on Node 20 costs a resource and a deprecation wrapper per call — 5 % of an
 * update check's CPU when the access log used it.
 */
export function captureScope(): <T>(fn: () => T) => T {
  const scope = storage.getStore();
  return (fn) => (scope ? storage.run(scope, fn) : fn());
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.request?.requestId;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's request id when it is sane, else starts a new one. */
export function acceptRequestId(incoming: unknown): string {
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
}
