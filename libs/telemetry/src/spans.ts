import { Attributes, Context, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';

const tracer = () => trace.getTracer('hangar');

export interface SpanOptions {
  kind?: SpanKind;
  /** Parent context; the active one when absent (e.g. one continued from NATS headers). */
  parent?: Context;
  attributes?: Attributes;
}

/**
 * Runs `work` inside a new span made active for it, so spans and log lines
 * made inside are its children; a throw marks the span as an error and is rethrown.
 */
export async function inSpan<T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T> {
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, options.parent ?? context.active());
  try {
    return await context.with(trace.setSpan(options.parent ?? context.active(), span), work);
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
    throw err;
  } finally {
    span.end();
  }
}

export { SpanKind } from '@opentelemetry/api';
