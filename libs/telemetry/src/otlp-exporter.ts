import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

type Env = Record<string, string | undefined>;

/**
 * Whether the standard variables ask for spans to be sent: then the HTTP, gRPC and MongoDB
 * instrumentations patch their modules as they load, which they cannot do inside a service's
 * one-file bundle (scripts/bundle-services.mjs runs dist/main.js instead then).
 */
export function tracesExported(env: Env = process.env): boolean {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  return (env.OTEL_TRACES_EXPORTER ?? 'otlp') !== 'none';
}

/**
 * The OTLP exporter the standard variables ask for, or none: with neither
 * OTEL_EXPORTER_OTLP_ENDPOINT nor its traces-only twin set, spans are made
 * (trace context still travels and reaches the logs) but never sent, so a
 * process without a collector pays no export cost and makes no connection.
 * The exporters read the endpoint, headers, timeout and compression themselves.
 * Their packages (about 230 modules, the OTLP transformer and the metrics SDK with them)
 * are loaded only when one is asked for: a process without a collector never holds them.
 */
export function otlpExporterFromEnv(env: Env = process.env): SpanExporter | undefined {
  if (!tracesExported(env)) return undefined;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter();
  }
  if (protocol === 'http/protobuf') {
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto');
    return new OTLPTraceExporter();
  }
  // grpc would need a second exporter stack; the collector listens on 4318 (HTTP) too.
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported here: use http/protobuf or http/json`);
}
