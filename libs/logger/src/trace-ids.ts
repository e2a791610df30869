import { context, trace } from '@opentelemetry/api';

/**
 * trace_id and span_id of the active span, so a log line leads to its trace
 * (and a trace to its lines). Only the API is read: without a started SDK
 * there is never an active span and lines carry neither.
 */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const ids = trace.getSpan(context.active())?.spanContext();
  if (!ids || !trace.isSpanContextValid(ids)) return undefined;
  return { trace_id: ids.traceId, span_id: ids.spanId };
}
