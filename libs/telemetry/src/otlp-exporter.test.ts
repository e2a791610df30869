import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { otlpExporterFromEnv } from './otlp-exporter';

describe('otlpExporterFromEnv', () => {
  const endpoint = 'http://otel-collector:4318';

  it('when no OTLP endpoint is set, then no exporter is made', () => {
    expect(otlpExporterFromEnv({})).toBeUndefined();
    expect(otlpExporterFromEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBeUndefined();
  });

  it('when an endpoint is set, then the protocol variables choose protobuf (the default) or JSON', () => {
    expect(otlpExporterFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toBeInstanceOf(OtlpProtobufExporter);
    expect(otlpExporterFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBeInstanceOf(OtlpJsonExporter);
    expect(otlpExporterFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toBeInstanceOf(OtlpProtobufExporter);
  });

  it('when OTEL_TRACES_EXPORTER=none, then nothing is exported even with an endpoint', () => {
    expect(otlpExporterFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  });

  it('when the protocol is one this build does not carry, then the start fails saying so', () => {
    expect(() => otlpExporterFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/grpc is not supported/);
  });
});
