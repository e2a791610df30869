import { diag, DiagConsoleLogger, DiagLogLevel } from '@opentelemetry/api';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, BatchSpanProcessor, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { otlpExporterFromEnv } from './otlp-exporter';
import { RedactingSpanProcessor } from './safe-url';
import { traceEdgesByHand } from './hand-traced-edges';
import { SharedScopeContextManager } from './shared-scope-context-manager';

export interface Telemetry {
  /** Sends what is buffered and stops exporting (the last step of a shutdown). */
  shutdown(): Promise<void>;
}

let started: Telemetry | undefined;

/**
 * Starts tracing for this process. Must run before grpc-js, mongodb
 * or node:http are loaded by anything else — each service's `src/telemetry.ts`
 * is the first import of its main.ts for that reason. `serviceName` is the
 * default; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over it.
 * OTEL_SDK_DISABLED=true starts nothing at all.
 */
export function startTelemetry({ serviceName }: { serviceName: string }): Telemetry {
  if (started) return started;
  if (process.env.OTEL_SDK_DISABLED === 'true') return (started = { shutdown: async () => undefined });
  // The SDK's own complaints (an unreachable collector) go to stderr, not into the JSON logs.
  diag.setLogger(new DiagConsoleLogger(), DiagLogLevel.ERROR);
  let exporter;
  try {
    exporter = otlpExporterFromEnv();
  } catch (err) {
    // The config schema refuses the same value and stops the start with every problem listed.
    process.stderr.write(`telemetry: ${(err as Error).message}\n`);
  }
  // Redaction first: the batch processor exports the span objects it is handed.
  const spanProcessors: SpanProcessor[] = exporter ? [new RedactingSpanProcessor(), new BatchSpanProcessor(exporter)] : [];
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: serviceName,
    ...(process.env.HANGAR_VERSION ? { [ATTR_SERVICE_VERSION]: process.env.HANGAR_VERSION } : {}),
  }).merge(detectResources({ detectors: [envDetector] }));
  // Nothing to send spans to: none is recorded (no attributes gathered, nothing
  // kept), yet every span still has ids, so trace context travels and log lines
  // carry trace_id and span_id (hand-traced-edges.ts).
  const provider = new NodeTracerProvider({ resource, spanProcessors, ...(exporter ? {} : { sampler: new AlwaysOffSampler() }) });
  // W3C traceparent + baggage, AsyncLocalStorage context.
  // One AsyncLocalStorage for the request context and the trace (shared-scope-context-manager.ts).
  provider.register({ contextManager: new SharedScopeContextManager() });
  // Nothing recorded: no auto-instrumentation either (their wrappers cost about a quarter
  // more CPU per request); the request and RPC edges carry the context by hand.
  // Loaded only then: the instrumentation packages are some 200 modules a process without a
  // collector would hold for nothing.
  if (exporter) {
    const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
    const { hangarInstrumentations } = require('./instrumentations') as typeof import('./instrumentations');
    registerInstrumentations({ tracerProvider: provider, instrumentations: hangarInstrumentations() });
  }
  traceEdgesByHand(!exporter);
  started = { shutdown: () => provider.shutdown() };
  return started;
}
