import { Context, ROOT_CONTEXT, context, propagation } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';

/**
 * W3C trace context where the auto-instrumentations cannot carry it: NATS
 * headers, and records that outlive the request (outbox entries, webhook
 * deliveries) keep the `traceparent` of the write that made them.
 */
export const TRACEPARENT = 'traceparent';

/** Something with string headers, as NATS' MsgHdrs is. */
export interface HeaderCarrier {
  get(key: string): string;
  set(key: string, value: string): void;
}

const headerGetter = {
  keys: (carrier: HeaderCarrier | undefined) => (carrier ? [TRACEPARENT, 'tracestate'] : []),
  get: (carrier: HeaderCarrier | undefined, key: string) => carrier?.get(key) || undefined,
};
const headerSetter = { set: (carrier: HeaderCarrier, key: string, value: string) => carrier.set(key, value) };

/** Writes the active (or given) context's traceparent and tracestate into headers. */
export function injectTraceHeaders(headers: HeaderCarrier, ctx: Context = context.active()): void {
  propagation.inject(ctx, headers, headerSetter);
}

/** The context a message's headers continue; the root context when they carry none. */
export function contextFromHeaders(headers: HeaderCarrier | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, headers, headerGetter);
}

/** The active span's traceparent, to store with a record; undefined outside a sampled span. */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier[TRACEPARENT];
}

/** The context a stored traceparent continues; the root context when there is none. */
export function contextFromTraceparent(traceparent: string | undefined): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { [TRACEPARENT]: traceparent });
}

/** traceparent (and tracestate) of the active span as plain headers, for a call made by hand. */
export function currentTraceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * Runs `work` with the auto-instrumentations silenced: for a call whose URL
 * is itself a secret (a webhook receiver's), made inside a span of our own
 * that records only what may be seen.
 */
export function withoutAutoSpans<T>(work: () => T): T {
  return context.with(suppressTracing(context.active()), work);
}
