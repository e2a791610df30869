export { startTelemetry } from './start-telemetry';
export { carryTrace, continueTrace } from './hand-traced-edges';
export type { Telemetry } from './start-telemetry';
export type { SpanOptions } from './spans';
export type { HeaderCarrier } from './trace-context';
export { inSpan, SpanKind } from './spans';
export {
  TRACEPARENT,
  contextFromHeaders,
  contextFromTraceparent,
  currentTraceHeaders,
  currentTraceparent,
  injectTraceHeaders,
  withoutAutoSpans,
} from './trace-context';
export { withoutQuery } from './safe-url';
