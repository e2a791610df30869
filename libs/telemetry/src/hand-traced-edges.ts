import { ROOT_CONTEXT, SpanKind, context, propagation, trace } from '@opentelemetry/api';
import { RequestContext, runWithContext, traceScope } from '@hangar/logger';

/**
 * Trace context at a process's edges without the auto-instrumentations.
 *
 * With no exporter nothing is recorded, yet log lines must carry trace_id and
 * span_id and a `traceparent` must travel on (a downstream process that does
 * export continues the trace). The http and grpc instrumentations did that at
 * about a quarter more CPU per request on the reads bench — wrappers around
 * every request, response and call, for spans no one keeps. So without an
 * exporter they are not loaded, and the two edges every request crosses do it
 * by hand: an incoming request or RPC continues the caller's traceparent in a
 * (non-recording) span of its own, and an outgoing RPC carries it in metadata.
 * NATS messages and stored records already go through trace-context.ts.
 *
 * With an exporter the auto-instrumentations make these spans (recorded) and
 * these functions step aside, so no span is made twice.
 */
let byHand = false;

/** Set once by startTelemetry: true when no exporter runs and these edges carry the context. */
export function traceEdgesByHand(on: boolean): void {
  byHand = on;
}

/** Header-like things to read a traceparent from: HTTP headers, gRPC metadata. */
type Getter = (key: string) => string | undefined;

const getterOf = (get: Getter) => ({
  keys: () => ['traceparent', 'tracestate'],
  get: (_carrier: unknown, key: string) => get(key),
});

/**
 * Runs `work` for one incoming request or RPC: inside its request context and,
 * when the edges are traced by hand, a span continuing the caller's
 * traceparent (read by `get`) — both set in one run of the shared store.
 */
export function continueTrace<T>(name: string, get: Getter, request: RequestContext, work: () => T): T {
  if (!byHand) return runWithContext(request, work);
  const parent = propagation.extract(ROOT_CONTEXT, undefined, getterOf(get));
  // Never recorded (no exporter), so there is nothing to end: it only holds the ids.
  const span = trace.getTracer('hangar').startSpan(name, { kind: SpanKind.SERVER }, parent);
  return traceScope.runWithRequest(trace.setSpan(parent, span), request, work);
}

/** Writes the active span's traceparent (and tracestate) with `set`, when no instrumentation does. */
export function carryTrace(set: (key: string, value: string) => void): void {
  if (!byHand) return;
  propagation.inject(context.active(), undefined, { set: (_carrier, key, value) => set(key, value) });
}
